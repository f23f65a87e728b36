# gather_scatter: the indexed TLSU blocks on four PEs. Each PE fills its own
# table of 64 U32 (PE*0x100 + i, a SETC / BSTART COND loop addressed through
# THREAD_ID), gathers a 2x8 tile from it through byte displacements (padded
# to 16 columns with Max), scatters that tile to its own output in another
# order, then compare-and-swaps the same output lanes against the gathered
# tile (every lane matches) with a tile of replacements, and stores the
# tile the swap read. Exit status 0.
        .equ TABLE, 0x1000        # PE p table at TABLE + p*256
        .equ OUTPUT, 0x2000       # PE p scatter output at OUTPUT + p*256
        .equ SWAPPED, 0x3000      # PE p CAS destination at SWAPPED + p*256
        .equ ROW_BYTES, 32        # 8 S32 or U32 per row

        .global _start
_start: BSTART.SYS FALL
        ssrget 0x26, ->a0         # THREAD_ID: the PE index
        BSTOP
        slli a0, 8, ->a1          # a1 = PE * 256
        hl.liu TABLE, ->s0
        add s0, a1, ->s0          # s0 = this PE's table
        hl.liu OUTPUT, ->s2
        add s2, a1, ->s2          # s2 = this PE's output
        hl.liu SWAPPED, ->s4
        add s4, a1, ->s4          # s4 = this PE's CAS destination
        addi zero, ROW_BYTES, ->s3
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

        hl.liu gather_index, ->s1
        BSTART.TLOAD S32          # T0 = 2x8 gather displacements
        B.DIM zero, 8, ->LB0
        B.DIM zero, 2, ->LB1
        B.IOR [s1, s3]
        B.IOT mask=1111, last, ->T<1>
        BSTOP

        BSTART.MGATHER U32        # T1 = table words at s0 + T0, Col 16
        B.DATR NORM, DTYPE_NONE, Max, EQ, NONE, 0, 0
        B.DIM zero, 8, ->LB0
        B.DIM zero, 2, ->LB1
        B.DIM zero, 16, ->LB2
        B.IOR [s0]
        B.IOT T0, mask=1111, last, ->T<2>
        BSTOP

        hl.liu scatter_index, ->s1
        BSTART.TLOAD S16          # T2 = 2x8 scatter displacements
        B.DIM zero, 8, ->LB0
        B.DIM zero, 2, ->LB1
        B.IOR [s1, s3]
        B.IOT mask=1111, last, ->T<1>
        BSTOP

        BSTART.MSCATTER U32       # T1 -> s2 + T2
        B.DIM zero, 8, ->LB0
        B.DIM zero, 2, ->LB1
        B.DIM zero, 16, ->LB2
        B.IOR [s2]
        B.IOT T1, T2, mask=1111, last
        BSTOP

        hl.addi s0, 128, ->s5     # the replacements: table words 32..47
        BSTART.TLOAD U32          # T3 = 2x8 replacements
        B.DIM zero, 8, ->LB0
        B.DIM zero, 2, ->LB1
        B.IOR [s5, s3]
        B.IOT mask=1111, last, ->T<1>
        BSTOP

        BSTART.MGATHER.CAS U32    # T4 = the output lanes; equal to T1, so T3 is stored
        B.DIM zero, 8, ->LB0
        B.DIM zero, 2, ->LB1
        B.IOR [s2]
        B.IOT T2, T1, mask=1111
        B.IOT T3, mask=1111, last, ->T<1>
        BSTOP

        BSTART.TSTORE U32         # T4 -> this PE's CAS destination
        B.DIM zero, 8, ->LB0
        B.DIM zero, 2, ->LB1
        B.IOR [s4, s3]
        B.IOT T4, mask=1111, last
        BSTOP

        BSTART.SYS FALL
        ebreak 0

# Byte displacements: S32 (gather, words 0..63) and S16 (scatter, words 0..15
# backwards; the 16-bit rows are 16 bytes apart in a 32-byte stride).
        .balign 4
gather_index:
        .word 0, 4, 60, 252, 128, 8, 200, 16
        .word 44, 36, 28, 20, 12, 4, 132, 248
scatter_index:
        .half 60, 56, 52, 48, 44, 40, 36, 32
        .half 0, 0, 0, 0, 0, 0, 0, 0
        .half 28, 24, 20, 16, 12, 8, 4, 0
