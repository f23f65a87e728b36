# gemv_mx: on each of the 4 PEs, one MX matrix-vector product (BSTART.TGEMVMX,
# B.FPATR mode None, FP32 out):
#   D[n] = sum_k (A[k] * 2^(AS[k/32]-127)) * (B[k,n] * 2^(BS[n,k/32]-127))
# with A [1,K] in E4M3, B [K,N] in E5M2, E8M0 scales A scale [1,G], B scale
# [N,G], G = ceil(K/32). K = 100 (the last scale group is partial), N = 24.
#
# Memory map: PE p's data at DATA + p * PE_STRIDE, row-major: A at A_OFF, A
# scale at AS_OFF, B at B_OFF, B scale at BS_OFF, D [N] FP32 at D_OFF.
# Local tiles: A -> T#1, A scale -> U#1, B scale -> U#2 (CUBE_M32), B -> N#1
# (CUBE_N8), D -> M#1 (CUBE_M32, stored with M322ND). Exit status 0.
        .equ N, 24
        .equ K, 100
        .equ G, 4
        .equ DATA, 0x10000
        .equ PE_STRIDE, 0x1000
        .equ A_OFF, 0x0            # 100 bytes
        .equ AS_OFF, 0x80          # 4 bytes
        .equ B_OFF, 0xc0           # 2400 bytes
        .equ BS_OFF, 0xa40         # 96 bytes
        .equ D_OFF, 0xac0          # 96 bytes

        .global _start
_start: BSTART.SYS FALL
        ssrget 0x26, ->a0         # THREAD_ID: the PE index
        BSTOP
        slli a0, 12, ->a1         # PE * PE_STRIDE
        hl.liu DATA, ->s0
        add s0, a1, ->s0    # s0 = this PE's data

        hl.addi s0, A_OFF, ->a1   # T#1 = A, CUBE_M32 [1,K]
        hl.liu K, ->a2
        BSTART.TLOAD E4M3
        B.DATR ND2M32, DTYPE_NONE, Zero, EQ, NONE, 0, 0
        B.DIM zero, K, ->LB0
        B.DIM zero, 1, ->LB1
        B.IOR [a1, a2]
        B.IOT mask=1111, last, ->T<6>
        BSTOP

        hl.addi s0, AS_OFF, ->a1  # U#1 = A scale, CUBE_M32 [1,G]
        hl.liu G, ->a2
        BSTART.TLOAD E8M0
        B.DATR ND2M32, DTYPE_NONE, Zero, EQ, NONE, 0, 0
        B.DIM zero, G, ->LB0
        B.DIM zero, 1, ->LB1
        B.IOR [a1, a2]
        B.IOT mask=1111, last, ->U<1>
        BSTOP

        hl.addi s0, B_OFF, ->a1   # N#1 = B, CUBE_N8 [K,N]
        hl.liu N, ->a2
        BSTART.TLOAD E5M2
        B.DATR ND2N8, DTYPE_NONE, Zero, EQ, NONE, 0, 0
        B.DIM zero, N, ->LB0
        B.DIM zero, K, ->LB1
        B.IOR [a1, a2]
        B.IOT mask=1111, last, ->N<6>
        BSTOP

        hl.addi s0, BS_OFF, ->a1  # U#2 = B scale, CUBE_M32 [N,G]
        hl.liu G, ->a2
        BSTART.TLOAD E8M0
        B.DATR ND2M32, DTYPE_NONE, Zero, EQ, NONE, 0, 0
        B.DIM zero, G, ->LB0
        B.DIM zero, N, ->LB1
        B.IOR [a1, a2]
        B.IOT mask=1111, last, ->U<1>
        BSTOP

        BSTART.TGEMVMX E4M3
        B.DATR NORM, E5M2, Zero, EQ, NONE, 0, 0
        B.FPATR None, None, 0, 0, 0, 0, 0, 0, 0, 0
        B.DIM zero, 1, ->LB0
        B.DIM zero, N, ->LB1
        B.DIM zero, K, ->LB2
        B.IOT T#1, U#1, mask=1111          # A, A scale
        B.IOT N#1, U#2, mask=1111, last, ->M<6>   # B, B scale; D
        BSTOP

        hl.addi s0, D_OFF, ->a1
        hl.liu N*4, ->a2
        BSTART.TSTORE FP32
        B.DATR M322ND, DTYPE_NONE, Zero, EQ, NONE, 0, 0
        B.DIM zero, N, ->LB0
        B.DIM zero, 1, ->LB1
        B.IOR [a1, a2]
        B.IOT M#1, mask=1111, last
        BSTOP

        BSTART.SYS FALL
        ebreak 0
