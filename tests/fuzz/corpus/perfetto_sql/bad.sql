SELECT __intrinsic_stringify!(a'b);
SELECT m!(1, (2;