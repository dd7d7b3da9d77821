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

    /**
     * mlock(2): locks the pages of {@code [address, address + length)} in RAM.
     *
     * @param address the range's first byte
     * @param length  the range's length in bytes
     * @return 0, or -1 with errno set
     */
    @SaveError
    int mlock(Pointer address, @size_t long length);

    /**
     * munlock(2): undoes mlock for the pages of the range.
     *
     * @param address the range's first byte
     * @param length  the range's length in bytes
     * @return 0, or -1 with errno set
     */
    @SaveError
    int munlock(Pointer address, @size_t long length);

    /**
     * getrlimit(2): fills {@code limits} with the soft and hard rlim_t values.
     *
     * @param resource the resource (RLIMIT_MEMLOCK)
     * @param limits   room for two rlim_t values
     * @return 0, or -1 with errno set
     */
    @SaveError
    int getrlimit(int resource, Pointer limits);

    /**
     * getpagesize(2): the unit mlock and munlock work in.
     *
     * @return the page size in bytes
     */
    int getpagesize();
}
