# tile_copy: TLSU-only firmware on four PEs (memory -> Local -> Shared -> Local
# -> memory). Each PE fills its own 8x8 U32 input with PE*0x100 + i (a SETC /
# BSTART COND loop, addressed through THREAD_ID), loads it into a Local tile,
# publishes its quarter (rows 2q, 2q+1) into Shared S3, broadcasts S3 back to
# a new Local tile on every PE and stores that tile to its own output; S3 is
# also stored once, whole, to SHARED_OUT. Exit status 0.
        .equ INPUT, 0x1000        # PE p input at INPUT + p*256
        .equ OUTPUT, 0x2000       # PE p output at OUTPUT + p*256
        .equ SHARED_OUT, 0x3000   # S3, stored by all four PEs (quarter q by PE q)
        .equ ROW_BYTES, 32        # 8 U32 columns

        .global _start
_start: BSTART.SYS FALL
        ssrget 0x26, ->a0         # THREAD_ID: the PE index
        BSTOP
        slli a0, 8, ->a1          # a1 = PE * 256
        hl.liu INPUT, ->s0
        add s0, a1, ->s0         # s0 = this PE's input
        hl.liu OUTPUT, ->s2
        add s2, a1, ->s2         # s2 = this PE's output
        hl.liu SHARED_OUT, ->s3
        addi zero, ROW_BYTES, ->s1
        slli a0, 8, ->a5          # a5 = the first value, PE * 0x100
        c.movr s0, ->a4           # a4 = write pointer
        addi zero, 0, ->a3        # a3 = element index

fill:   BSTART.STD COND, fill
        add a5, a3, ->a6
        swi a6, [a4, 0]
        addi a4, 4, ->a4
        addi a3, 1, ->a3
        setc.nei a3, 64, 0
        BSTOP

        BSTART.TLOAD U32          # T0 = this PE's input, 8x8
        B.DIM zero, 8, ->LB0
        B.DIM zero, 8, ->LB1
        B.IOR [s0, s1]
        B.IOT mask=1111, last, ->T<2>
        BSTOP

        BSTART.TMOV.L2S.PUBLISH U32   # S3 quarter q = PE q's rows 2q..2q+1
        B.IOT T0, mask=1111, last
        B.IOS mask=1111, ->S3<2>
        BSTOP

        BSTART.TMOV.S2L.BROADCAST U32 # U0 = all of S3 on every PE
        B.IOS S3, mask=1111
        B.IOT mask=1111, last, ->U<2>
        BSTOP

        BSTART.TSTORE U32         # U0 -> this PE's output
        B.DIM zero, 8, ->LB0
        B.DIM zero, 8, ->LB1
        B.IOR [s2, s1]
        B.IOT U0, mask=1111, last
        BSTOP

        BSTART.TSTORE U32         # S3 -> SHARED_OUT, quarter q by PE q
        B.DIM zero, 8, ->LB0
        B.DIM zero, 8, ->LB1
        B.DIM zero, 8, ->LB2
        B.IOR [s3, s1]
        B.IOS S3, mask=1111
        BSTOP

        BSTART.SYS FALL
        ebreak 0
