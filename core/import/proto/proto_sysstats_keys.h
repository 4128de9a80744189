/*
 * proto_sysstats_keys.h - the names of /proc/meminfo and /proc/vmstat
 * counters by the ids a SysStats packet gives them (Perfetto's
 * MeminfoCounters and VmstatCounters enums), as trace processor names
 * their tracks. Data: one table each, NULL where an id names nothing.
 * Included by proto_sysstats.c only.
 */
#ifndef TT_PROTO_SYSSTATS_KEYS_H
#define TT_PROTO_SYSSTATS_KEYS_H

static const char *const meminfo_keys[39] = {
	[0] = "MemUnspecified", [1] = "MemTotal", [2] = "MemFree", [3] = "MemAvailable", [4] = "Buffers",
	[5] = "Cached", [6] = "SwapCached", [7] = "Active", [8] = "Inactive", [9] = "Active(anon)",
	[10] = "Inactive(anon)", [11] = "Active(file)", [12] = "Inactive(file)", [13] = "Unevictable",
	[14] = "Mlocked", [15] = "SwapTotal", [16] = "SwapFree", [17] = "Dirty", [18] = "Writeback",
	[19] = "AnonPages", [20] = "Mapped", [21] = "Shmem", [22] = "Slab", [23] = "SReclaimable",
	[24] = "SUnreclaim", [25] = "KernelStack", [26] = "PageTables", [27] = "CommitLimit", [28] = "Committed_AS",
	[29] = "VmallocTotal", [30] = "VmallocUsed", [31] = "VmallocChunk", [32] = "CmaTotal", [33] = "CmaFree",
	[34] = "Gpu", [35] = "Zram", [36] = "Misc", [37] = "ION_heap", [38] = "ION_heap_pool",
};

static const char *const vmstat_keys[189] = {
	[0] = "VmstatUnspecified", [1] = "nr_free_pages", [2] = "nr_alloc_batch", [3] = "nr_inactive_anon",
	[4] = "nr_active_anon", [5] = "nr_inactive_file", [6] = "nr_active_file", [7] = "nr_unevictable",
	[8] = "nr_mlock", [9] = "nr_anon_pages", [10] = "nr_mapped", [11] = "nr_file_pages", [12] = "nr_dirty",
	[13] = "nr_writeback", [14] = "nr_slab_reclaimable", [15] = "nr_slab_unreclaimable",
	[16] = "nr_page_table_pages", [17] = "nr_kernel_stack", [18] = "nr_overhead", [19] = "nr_unstable",
	[20] = "nr_bounce", [21] = "nr_vmscan_write", [22] = "nr_vmscan_immediate_reclaim",
	[23] = "nr_writeback_temp", [24] = "nr_isolated_anon", [25] = "nr_isolated_file", [26] = "nr_shmem",
	[27] = "nr_dirtied", [28] = "nr_written", [29] = "nr_pages_scanned", [30] = "workingset_refault",
	[31] = "workingset_activate", [32] = "workingset_nodereclaim", [33] = "nr_anon_transparent_hugepages",
	[34] = "nr_free_cma", [35] = "nr_swapcache", [36] = "nr_dirty_threshold",
	[37] = "nr_dirty_background_threshold", [38] = "pgpgin", [39] = "pgpgout", [40] = "pgpgoutclean",
	[41] = "pswpin", [42] = "pswpout", [43] = "pgalloc_dma", [44] = "pgalloc_normal", [45] = "pgalloc_movable",
	[46] = "pgfree", [47] = "pgactivate", [48] = "pgdeactivate", [49] = "pgfault", [50] = "pgmajfault",
	[51] = "pgrefill_dma", [52] = "pgrefill_normal", [53] = "pgrefill_movable", [54] = "pgsteal_kswapd_dma",
	[55] = "pgsteal_kswapd_normal", [56] = "pgsteal_kswapd_movable", [57] = "pgsteal_direct_dma",
	[58] = "pgsteal_direct_normal", [59] = "pgsteal_direct_movable", [60] = "pgscan_kswapd_dma",
	[61] = "pgscan_kswapd_normal", [62] = "pgscan_kswapd_movable", [63] = "pgscan_direct_dma",
	[64] = "pgscan_direct_normal", [65] = "pgscan_direct_movable", [66] = "pgscan_direct_throttle",
	[67] = "pginodesteal", [68] = "slabs_scanned", [69] = "kswapd_inodesteal",
	[70] = "kswapd_low_wmark_hit_quickly", [71] = "kswapd_high_wmark_hit_quickly", [72] = "pageoutrun",
	[73] = "allocstall", [74] = "pgrotated", [75] = "drop_pagecache", [76] = "drop_slab",
	[77] = "pgmigrate_success", [78] = "pgmigrate_fail", [79] = "compact_migrate_scanned",
	[80] = "compact_free_scanned", [81] = "compact_isolated", [82] = "compact_stall", [83] = "compact_fail",
	[84] = "compact_success", [85] = "compact_daemon_wake", [86] = "unevictable_pgs_culled",
	[87] = "unevictable_pgs_scanned", [88] = "unevictable_pgs_rescued", [89] = "unevictable_pgs_mlocked",
	[90] = "unevictable_pgs_munlocked", [91] = "unevictable_pgs_cleared", [92] = "unevictable_pgs_stranded",
	[93] = "nr_zspages", [94] = "nr_ion_heap", [95] = "nr_gpu_heap", [96] = "allocstall_dma",
	[97] = "allocstall_movable", [98] = "allocstall_normal", [99] = "compact_daemon_free_scanned",
	[100] = "compact_daemon_migrate_scanned", [101] = "nr_fastrpc", [102] = "nr_indirectly_reclaimable",
	[103] = "nr_ion_heap_pool", [104] = "nr_kernel_misc_reclaimable", [105] = "nr_shadow_call_stack_bytes",
	[106] = "nr_shmem_hugepages", [107] = "nr_shmem_pmdmapped", [108] = "nr_unreclaimable_pages",
	[109] = "nr_zone_active_anon", [110] = "nr_zone_active_file", [111] = "nr_zone_inactive_anon",
	[112] = "nr_zone_inactive_file", [113] = "nr_zone_unevictable", [114] = "nr_zone_write_pending",
	[115] = "oom_kill", [116] = "pglazyfree", [117] = "pglazyfreed", [118] = "pgrefill",
	[119] = "pgscan_direct", [120] = "pgscan_kswapd", [121] = "pgskip_dma", [122] = "pgskip_movable",
	[123] = "pgskip_normal", [124] = "pgsteal_direct", [125] = "pgsteal_kswapd", [126] = "swap_ra",
	[127] = "swap_ra_hit", [128] = "workingset_restore", [129] = "allocstall_device",
	[130] = "allocstall_dma32", [131] = "balloon_deflate", [132] = "balloon_inflate", [133] = "balloon_migrate",
	[134] = "cma_alloc_fail", [135] = "cma_alloc_success", [136] = "nr_file_hugepages",
	[137] = "nr_file_pmdmapped", [138] = "nr_foll_pin_acquired", [139] = "nr_foll_pin_released",
	[140] = "nr_sec_page_table_pages", [141] = "nr_shadow_call_stack", [142] = "nr_swapcached",
	[143] = "nr_throttled_written", [144] = "pgalloc_device", [145] = "pgalloc_dma32",
	[146] = "pgdemote_direct", [147] = "pgdemote_kswapd", [148] = "pgreuse", [149] = "pgscan_anon",
	[150] = "pgscan_file", [151] = "pgskip_device", [152] = "pgskip_dma32", [153] = "pgsteal_anon",
	[154] = "pgsteal_file", [155] = "thp_collapse_alloc", [156] = "thp_collapse_alloc_failed",
	[157] = "thp_deferred_split_page", [158] = "thp_fault_alloc", [159] = "thp_fault_fallback",
	[160] = "thp_fault_fallback_charge", [161] = "thp_file_alloc", [162] = "thp_file_fallback",
	[163] = "thp_file_fallback_charge", [164] = "thp_file_mapped", [165] = "thp_migration_fail",
	[166] = "thp_migration_split", [167] = "thp_migration_success", [168] = "thp_scan_exceed_none_pte",
	[169] = "thp_scan_exceed_share_pte", [170] = "thp_scan_exceed_swap_pte", [171] = "thp_split_page",
	[172] = "thp_split_page_failed", [173] = "thp_split_pmd", [174] = "thp_swpout",
	[175] = "thp_swpout_fallback", [176] = "thp_zero_page_alloc", [177] = "thp_zero_page_alloc_failed",
	[178] = "vma_lock_abort", [179] = "vma_lock_miss", [180] = "vma_lock_retry", [181] = "vma_lock_success",
	[182] = "workingset_activate_anon", [183] = "workingset_activate_file", [184] = "workingset_nodes",
	[185] = "workingset_refault_anon", [186] = "workingset_refault_file", [187] = "workingset_restore_anon",
	[188] = "workingset_restore_file",
};

#endif
