# coop_shared_b: one cooperative Shared TMATMUL on the 4 PEs (0.58.5):
#   D[m,n] = sum_k A[m,k] * B[k,n]     A [GROUP_M,K], B [K,N] FP16, D FP32
# B is published once into Shared S3 ([K,N] row-major, TransB = 0) and read
# by every PE through B.IOS; LB0 = GROUP_M = 40 rows are split M_per_PE = 16:
# PE0 rows 0..15, PE1 16..31, PE2 32..39, PE3 none (it runs the Shared checks
# only). Each PE loads its own 16-row slice of A and stores its D rows.
#
# Memory map (row-major): A [48,K] FP16 at A_ADDR (rows 40..47 are zero
# padding, so PE2's 16-row load stays inside A), B [K,N] FP16 at B_ADDR, D
# [48,N] FP32 at D_ADDR (PE i stores rows 16i..16i+15; PE2's rows 40..47 are
# the zero rows beyond its valid_M). Local tiles: B -> T#1 (row-major, the
# publish source), A slice -> T#2 (CUBE_M16), D -> M#1 (CUBE_M16, PEs 0..2).
# Exit status 0.
        .equ GROUP_M, 40
        .equ N, 16
        .equ K, 32
        .equ A_ADDR, 0x10000       # 48 x 32 x 2 = 3072 bytes
        .equ B_ADDR, 0x11000       # 32 x 16 x 2 = 1024 bytes
        .equ D_ADDR, 0x12000       # 48 x 16 x 4 = 3072 bytes

        .global _start
_start: BSTART.SYS FALL
        ssrget 0x26, ->a0         # THREAD_ID: the PE index
        BSTOP

        hl.liu B_ADDR, ->a1       # T#1 = B on every PE, row-major [K,N]
        hl.liu N*2, ->a2
        BSTART.TLOAD FP16
        B.DIM zero, N, ->LB0
        B.DIM zero, K, ->LB1
        B.IOR [a1, a2]
        B.IOT mask=1111, last, ->T<4>
        BSTOP

        BSTART.TMOV.L2S.PUBLISH FP16   # S3 quarter q = PE q's rows 8q..8q+7 of B
        B.IOT T#1, mask=1111, last
        B.IOS mask=1111, ->S3<4>
        BSTOP

        hl.liu 16*K*2, ->a1       # T#2 = this PE's A rows 16p.., CUBE_M16 [16,K]
        mul a0, a1, ->a1
        hl.liu A_ADDR, ->a3
        add a3, a1, ->a1
        hl.liu K*2, ->a2
        BSTART.TLOAD FP16
        B.DATR ND2M16, DTYPE_NONE, Zero, EQ, NONE, 0, 0
        B.DIM zero, K, ->LB0
        B.DIM zero, 16, ->LB1
        B.IOR [a1, a2]
        B.IOT mask=1111, last, ->T<4>
        BSTOP

        BSTART.TMATMUL FP16
        B.DATR NORM, FP16, Zero, EQ, NONE, 0, 0
        B.FPATR None, None, 0, 0, 0, 0, 0, 0, 0, 0
        B.DIM zero, GROUP_M, ->LB0
        B.DIM zero, N, ->LB1
        B.DIM zero, K, ->LB2
        B.IOT T#2, mask=1111, last, ->M<4>  # A slice; D
        B.IOS S3, mask=1111                 # Shared B
        BSTOP

        hl.liu 16*N*4, ->a1       # PE p's D rows at D_ADDR + p * 16 rows
        mul a0, a1, ->a1
        hl.liu D_ADDR, ->a3
        add a3, a1, ->a1
        hl.liu N*4, ->a2
        BSTART.TSTORE FP32
        B.DATR M162ND, DTYPE_NONE, Zero, EQ, NONE, 0, 0
        B.DIM zero, N, ->LB0
        B.DIM zero, 16, ->LB1
        B.IOR [a1, a2]
        B.IOT M#1, mask=1110, last
        BSTOP

        BSTART.SYS FALL
        ebreak 0
