# shared_allgather: the four PEs gather their slices into one Shared tile and
# every PE reads the whole tile back (memory -> Local -> Shared -> Local ->
# memory). PE p fills its own 16x8 U32 input with (p+1)*0x10000 + i (an
# HL.SETC / BSTART COND loop on word arithmetic, addressed through THREAD_ID)
# and loads it into T0. INSERT writes quarter q of S5 (rows 4q..4q+3) from
# PE q without publishing it; PE0 alone then rewrites quarter 0 with PUBLISH,
# which publishes S5 because the other quarters are already initialized.
# BROADCAST copies the published S5 to U0 on every PE, each PE stores U0 to its
# own output, and PE1 stores its quarter of S5 with TSTORE.SPART. Exit status 0.
        .equ INPUT, 0x1000        # PE p input at INPUT + p*512
        .equ OUTPUT, 0x2000       # PE p output at OUTPUT + p*512
        .equ SHARED_OUT, 0x3000   # rows 4..7 of S5, stored by PE1 alone
        .equ ROW_BYTES, 32        # 8 U32 columns
        .equ ELEMENTS, 128        # 16 rows x 8 columns

        .global _start
_start: BSTART.SYS FALL
        ssrget 0x26, ->a0         # THREAD_ID: the PE index
        BSTOP
        slliw a0, 9, ->a1         # a1 = PE * 512
        hl.liu INPUT, ->s0
        add s0, a1, ->s0    # s0 = this PE's input
        hl.liu OUTPUT, ->s2
        add s2, a1, ->s2    # s2 = this PE's output
        hl.liu SHARED_OUT, ->s3
        addi zero, ROW_BYTES, ->s1
        addiw a0, 1, ->a5
        slliw a5, 16, ->a5        # a5 = (PE + 1) << 16
        c.movr s0, ->a4           # a4 = write pointer
        addi zero, 0, ->a3        # a3 = element index

fill:   BSTART.STD COND, fill
        addw a5, a3, ->a6
        swi a6, [a4, 0]
        addi a4, 4, ->a4
        addiw a3, 1, ->a3
        hl.setc.ltui a3, ELEMENTS, 0
        BSTOP

        BSTART.TLOAD U32          # T0 = this PE's input, 16x8
        B.DIM zero, 8, ->LB0
        B.DIM zero, 16, ->LB1
        B.IOR [s0, s1]
        B.IOT mask=1111, last, ->T<3>
        BSTOP

        BSTART.TMOV.L2S.INSERT U32    # S5 quarter q = PE q's rows 4q..4q+3, unpublished
        B.IOT T0, mask=1111, last
        B.IOS mask=1111, ->S5<3>
        BSTOP

        BSTART.TMOV.L2S.PUBLISH U32   # PE0 rewrites quarter 0; S5 is now published
        B.IOT T0, mask=1000, last
        B.IOS mask=1000, ->S5<3>
        BSTOP

        BSTART.TMOV.S2L.BROADCAST U32 # U0 = all of S5 on every PE
        B.IOS S5, mask=1111
        B.IOT mask=1111, last, ->U<3>
        BSTOP

        BSTART.TSTORE U32         # U0 -> this PE's output
        B.DIM zero, 8, ->LB0
        B.DIM zero, 16, ->LB1
        B.IOR [s2, s1]
        B.IOT U0, mask=1111, last
        BSTOP

        BSTART.TSTORE.SPART U32   # PE1 stores its quarter of S5 (rows 4..7)
        B.DIM zero, 8, ->LB0
        B.DIM zero, 16, ->LB1
        B.DIM zero, 8, ->LB2
        B.IOR [s3, s1]
        B.IOS S5, mask=0100
        BSTOP

        BSTART.SYS FALL
        ebreak 0
