# hif4_gemm: on each of the 4 PEs, two 0.58.5 HiF4 MX GEMMs with bias, FP32
# out (BSTART.TMATMULMX.BIAS, B.FPATR mode None):
#   D0[m,n] = sum_k (A0[m,k] * S(AS0[m,k/64], k%64)) * (B0[k,n] * S(BS0[n,k/64], k%64)) + Bias[n]
#   D1[m,n] = sum_k (A1[m,k] * S(AS1[m,k/64], k%64)) * (B1[k,n] * 2^(BS1[n,k/32]-127)) + Bias[n]
# Block 0 is HiF4X2 x HiF4X2 with A0 [M0,K] in CUBE_M32; block 1 is HiF4X2 x
# E4M3 with A1 [M1,K] in CUBE_M16 (the 4-bit column swap). HiF4X2 lanes are
# E1M2 nibbles, two per byte, the even lane in the low nibble. S(w, q) is the
# group-64 U32 scale word w at lane q: E6M2 base w[7:0] (bias 48) times
# 2^(w[8 + q/8] + w[16 + q/4]) (E1_8 and E1_16 increments). A scales are
# [M,G] and B scales [N,G] (CUBE_M32); the E4M3 side of block 1 has E8M0
# scales [N,G32]. M0 = 32, M1 = 16, N = 32, K = 192: G = 3 scale words per
# HiF4 row, G32 = 6 E8M0 scales per E4M3 column.
#
# Memory map: PE p's data at DATA + p * PE_STRIDE, all row-major, each region
# 64-byte aligned at the offsets below: A0 [M0,K] HiF4X2, AS0 [M0,G] U32, B0
# [K,N] HiF4X2, BS0 [N,G] U32, A1 [M1,K] HiF4X2, AS1 [M1,G] U32, B1 [K,N]
# E4M3, BS1 [N,G32] E8M0, Bias [N] FP32, then the outputs D0 [M0,N] and D1
# [M1,N] FP32. Local tiles: A0 -> T#1, A1 -> T#2; AS0 -> U#1, AS1 -> U#2,
# Bias -> U#3; B0 -> N#1, BS0 -> N#2, B1 -> N#3, BS1 -> N#4; D0 -> M#1
# (CUBE_M32, stored with M322ND), D1 -> M#2 (CUBE_M16, stored with M162ND).
# Exit status 0.
        .equ M0, 32
        .equ M1, 16
        .equ N, 32
        .equ K, 192
        .equ G, 3               # U32 scale words along K (64 lanes each)
        .equ G32, 6             # E8M0 scales along K (32 lanes each)
        .equ DATA, 0x10000
        .equ PE_STRIDE, 0x6000
        .equ A0_OFF, 0x0        # 3072 bytes
        .equ AS0_OFF, 0xc00     # 384 bytes
        .equ B0_OFF, 0xd80      # 3072 bytes
        .equ BS0_OFF, 0x1980    # 384 bytes
        .equ A1_OFF, 0x1b00     # 1536 bytes
        .equ AS1_OFF, 0x2100    # 192 bytes
        .equ B1_OFF, 0x21c0     # 6144 bytes
        .equ BS1_OFF, 0x39c0    # 192 bytes
        .equ BIAS_OFF, 0x3a80   # 128 bytes
        .equ D0_OFF, 0x3b00     # 4096 bytes
        .equ D1_OFF, 0x4b00     # 2048 bytes

        .global _start
_start: BSTART.SYS FALL
        ssrget 0x26, ->a0         # THREAD_ID: the PE index
        BSTOP
        hl.liu PE_STRIDE, ->a1
        mul a0, a1, ->a1
        hl.liu DATA, ->s0
        add s0, a1, ->s0    # s0 = this PE's data

        hl.addi s0, A0_OFF, ->a1  # T#1 = A0, CUBE_M32 [M0,K]
        hl.liu K >> 1, ->a2       # row stride in bytes: two lanes a byte
        BSTART.TLOAD HiF4X2
        B.DATR ND2M32, DTYPE_NONE, Zero, EQ, NONE, 0, 0
        B.DIM zero, K, ->LB0
        B.DIM zero, M0, ->LB1
        B.IOR [a1, a2]
        B.IOT mask=1111, last, ->T<6>
        BSTOP
        hl.addi s0, AS0_OFF, ->a1 # U#1 = A0 scale, CUBE_M32 [M0,G]
        hl.liu G*4, ->a2
        BSTART.TLOAD U32
        B.DATR ND2M32, DTYPE_NONE, Zero, EQ, NONE, 0, 0
        B.DIM zero, G, ->LB0
        B.DIM zero, M0, ->LB1
        B.IOR [a1, a2]
        B.IOT mask=1111, last, ->U<3>
        BSTOP
        hl.addi s0, B0_OFF, ->a1  # N#1 = B0, CUBE_N8 [K,N]
        hl.liu N >> 1, ->a2
        BSTART.TLOAD HiF4X2
        B.DATR ND2N8, DTYPE_NONE, Zero, EQ, NONE, 0, 0
        B.DIM zero, N, ->LB0
        B.DIM zero, K, ->LB1
        B.IOR [a1, a2]
        B.IOT mask=1111, last, ->N<6>
        BSTOP
        hl.addi s0, BS0_OFF, ->a1 # N#2 = B0 scale, CUBE_M32 [N,G]
        hl.liu G*4, ->a2
        BSTART.TLOAD U32
        B.DATR ND2M32, DTYPE_NONE, Zero, EQ, NONE, 0, 0
        B.DIM zero, G, ->LB0
        B.DIM zero, N, ->LB1
        B.IOR [a1, a2]
        B.IOT mask=1111, last, ->N<3>
        BSTOP

        hl.addi s0, A1_OFF, ->a1  # T#2 = A1, CUBE_M16 [M1,K]
        hl.liu K >> 1, ->a2
        BSTART.TLOAD HiF4X2
        B.DATR ND2M16, DTYPE_NONE, Zero, EQ, NONE, 0, 0
        B.DIM zero, K, ->LB0
        B.DIM zero, M1, ->LB1
        B.IOR [a1, a2]
        B.IOT mask=1111, last, ->T<5>
        BSTOP
        hl.addi s0, AS1_OFF, ->a1 # U#2 = A1 scale, CUBE_M32 [M1,G]
        hl.liu G*4, ->a2
        BSTART.TLOAD U32
        B.DATR ND2M32, DTYPE_NONE, Zero, EQ, NONE, 0, 0
        B.DIM zero, G, ->LB0
        B.DIM zero, M1, ->LB1
        B.IOR [a1, a2]
        B.IOT mask=1111, last, ->U<3>
        BSTOP
        hl.addi s0, B1_OFF, ->a1  # N#3 = B1, CUBE_N8 [K,N]
        hl.liu N, ->a2
        BSTART.TLOAD E4M3
        B.DATR ND2N8, DTYPE_NONE, Zero, EQ, NONE, 0, 0
        B.DIM zero, N, ->LB0
        B.DIM zero, K, ->LB1
        B.IOR [a1, a2]
        B.IOT mask=1111, last, ->N<7>
        BSTOP
        hl.addi s0, BS1_OFF, ->a1 # N#4 = B1 scale, CUBE_M32 [N,G32]
        hl.liu G32, ->a2
        BSTART.TLOAD E8M0
        B.DATR ND2M32, DTYPE_NONE, Zero, EQ, NONE, 0, 0
        B.DIM zero, G32, ->LB0
        B.DIM zero, N, ->LB1
        B.IOR [a1, a2]
        B.IOT mask=1111, last, ->N<2>
        BSTOP
        hl.addi s0, BIAS_OFF, ->a1  # U#3 = Bias, 1 x N
        hl.liu N*4, ->a2
        BSTART.TLOAD FP32
        B.DIM zero, N, ->LB0
        B.DIM zero, 1, ->LB1
        B.DIM zero, 32, ->LB2
        B.IOR [a1, a2]
        B.IOT mask=1111, last, ->U<1>
        BSTOP

        # block 0: HiF4X2 x HiF4X2 -> M#1 = D0
        BSTART.TMATMULMX.BIAS HiF4X2
        B.DATR NORM, HiF4X2, Zero, EQ, NONE, 0, 0
        B.FPATR None, None, 0, 0, 0, 0, 0, 0, 0, 0
        B.DIM zero, M0, ->LB0
        B.DIM zero, N, ->LB1
        B.DIM zero, K, ->LB2
        B.IOT T#1, U#1, mask=1111        # A0, A0 scale
        B.IOT N#1, N#2, mask=1111        # B0, B0 scale
        B.IOT U#3, mask=1111, last, ->M<6>  # Bias; D0
        BSTOP
        hl.addi s0, D0_OFF, ->a1
        hl.liu N*4, ->a2
        BSTART.TSTORE FP32
        B.DATR M322ND, DTYPE_NONE, Zero, EQ, NONE, 0, 0
        B.DIM zero, N, ->LB0
        B.DIM zero, M0, ->LB1
        B.IOR [a1, a2]
        B.IOT M#1, mask=1111, last
        BSTOP

        # block 1: HiF4X2 x E4M3 -> M#2 = D1 (CUBE_M16, A1's layout)
        BSTART.TMATMULMX.BIAS HiF4X2
        B.DATR NORM, E4M3, Zero, EQ, NONE, 0, 0
        B.FPATR None, None, 0, 0, 0, 0, 0, 0, 0, 0
        B.DIM zero, M1, ->LB0
        B.DIM zero, N, ->LB1
        B.DIM zero, K, ->LB2
        B.IOT T#2, U#2, mask=1111        # A1, A1 scale
        B.IOT N#3, N#4, mask=1111        # B1, B1 scale
        B.IOT U#3, mask=1111, last, ->M<5>  # Bias; D1
        BSTOP
        hl.addi s0, D1_OFF, ->a1
        hl.liu N*4, ->a2
        BSTART.TSTORE FP32
        B.DATR M162ND, DTYPE_NONE, Zero, EQ, NONE, 0, 0
        B.DIM zero, N, ->LB0
        B.DIM zero, M1, ->LB1
        B.IOR [a1, a2]
        B.IOT M#2, mask=1111, last
        BSTOP

        BSTART.SYS FALL
        ebreak 0
