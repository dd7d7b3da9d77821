package io.extsock.core.nativecall;

import jnr.ffi.Pointer;
import jnr.ffi.annotations.SaveError;
import jnr.ffi.types.size_t;

/**
 * The C library functions that pinning needs, bound by jnr-ffi (io.extsock.core.verbs.MemoryPinning
 * loads it). jnr-ffi implements this interface with a class it generates in an unnamed module,
 * so on the module path this package must be exported: it holds nothing but this interface.
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
