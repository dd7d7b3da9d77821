package io.extsock.core.verbs;

import jnr.ffi.Pointer;
import jnr.ffi.annotations.SaveError;
import jnr.ffi.types.size_t;

/**
 * The C library functions that pinning needs, bound by jnr-ffi ({@link MemoryPinning} loads
 * it). Public only because jnr-ffi implements it with generated code outside this package;
 * the package is not exported, so applications never see it.
 */
public interface LibcMemoryCalls {

    /** mlock(2): lock the pages of {@code [address, address + length)} in RAM; 0 or -1 and errno. */
    @SaveError
    int mlock(Pointer address, @size_t long length);

    /** munlock(2): undo mlock for the pages of the range; 0 or -1 and errno. */
    @SaveError
    int munlock(Pointer address, @size_t long length);

    /** getrlimit(2): fills {@code limits} with the soft and hard rlim_t values; 0 or -1 and errno. */
    @SaveError
    int getrlimit(int resource, Pointer limits);

    /** getpagesize(2): the page size, the unit mlock and munlock work in. */
    int getpagesize();
}
