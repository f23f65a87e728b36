"""Sizes of CUBE tiles in Local storage, shared by the firmware generators
(gen_gemm.py, gen_mx_gemm_bias.py); docs/cube.md describes the layouts."""

CELL = 128  # bytes per CUBE CELL (modules/arch kCellBytes)
SIZE_CODE_MAX = 10  # 64 KiB


def align(value, to):
    return (value + to - 1) // to * to


def size_code(needed):
    """The smallest B.IOT SizeCode (capacity 64 << code) holding `needed` bytes, or None."""
    code = 1
    while (64 << code) < needed:
        code += 1
    return code if code <= SIZE_CODE_MAX else None


def m32_bytes(rows, cols, bits):
    """CUBE_M32: 32-row CELLs of 1024/(32*bits) columns."""
    cell_cols = 1024 // (32 * bits)
    return align(rows, 32) // 32 * align(cols, cell_cols) // cell_cols * CELL


def n8_bytes(k, n, bits):
    """CUBE_N8: CELLs of 128/bits K rows by 8 columns."""
    cell_rows = CELL // bits
    return align(k, cell_rows) // cell_rows * align(n, 8) // 8 * CELL
