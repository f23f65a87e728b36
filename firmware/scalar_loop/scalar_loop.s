# scalar_loop: the scalar-heavy firmware of the front-end benchmark
# (docs/performance.md, "Front end"). A BSTART.STD COND / SETC loop of
# ITERATIONS iterations on four lockstep PEs: each iteration stores
# (iterations left + PE index) into the next 8-byte slot of the PE's own
# 256-byte ring, loads it back and adds it to a checksum. Eleven instructions
# per iteration (BSTART, nine scalars, BSTOP). At the end PE p's checksum, in
# a4 and at CHECKSUM + 8*p, is N*(N+1)/2 + N*p with N = ITERATIONS. Exit 0.
        .equ ITERATIONS, 100000
        .equ RING, 0x4000         # PE p ring at RING + p*256
        .equ CHECKSUM, 0x5000

        .global _start
_start: BSTART.SYS FALL
        ssrget 0x26, ->a0         # THREAD_ID: the PE index
        BSTOP
        slli a0, 8, ->a1
        hl.liu RING, ->s0
        add s0, a1, ->s0    # s0 = this PE's ring
        addi zero, 0xf8, ->s1     # s1 = slot offset mask
        hl.liu ITERATIONS, ->a2   # a2 = iterations left
        addi zero, 0, ->a3        # a3 = slot offset
        addi zero, 0, ->a4        # a4 = checksum

loop:   BSTART.STD COND, loop
        add s0, a3, ->a5    # a5 = this iteration's slot
        add a2, a0, ->a6    # a6 = iterations left + PE index
        sdi a6, [a5, 0]
        ldi [a5, 0], ->a7
        add a4, a7, ->a4
        addi a3, 8, ->a3
        and a3, s1, ->a3    # wrap at 256 bytes
        subi a2, 1, ->a2
        setc.nei a2, 0, 0
        BSTOP

        hl.liu CHECKSUM, ->s2
        sd a4, [s2, a0<<3]         # CHECKSUM + 8*PE
        BSTART.SYS FALL
        ebreak 0
