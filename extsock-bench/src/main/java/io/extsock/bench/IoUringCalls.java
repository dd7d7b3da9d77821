package io.extsock.bench;

import jnr.ffi.Pointer;
import jnr.ffi.annotations.Direct;
import jnr.ffi.annotations.SaveError;
import jnr.ffi.types.size_t;

/**
 * The Linux calls behind {@link IoUring}, bound by jnr-ffi: the C library has no wrapper for
 * io_uring's two system calls, so they go through {@code syscall(2)}, and the rings are shared
 * with the kernel through {@code mmap(2)}. Each returns -1 with errno set on failure, as in C.
 * Public because jnr-ffi implements it with a class of its own making.
 */
public interface IoUringCalls {

    /** io_uring_setup's number; the same on every architecture (the generic table's). */
    long SYS_IO_URING_SETUP = 425;
    /** io_uring_enter's number; the same on every architecture. */
    long SYS_IO_URING_ENTER = 426;
    int PROT_READ = 0x1;
    int PROT_WRITE = 0x2;
    int MAP_SHARED = 0x1;
    int MAP_POPULATE = 0x8000;

    /** io_uring_setup(entries, params): a ring's descriptor. */
    @SaveError
    int syscall(long number, int entries, @Direct Pointer params);

    /** io_uring_enter(fd, to_submit, min_complete, flags, NULL, 0): the requests it took. */
    @SaveError
    int syscall(long number, int ringFd, int toSubmit, int minComplete, int flags, Pointer signalMask,
            @size_t long signalMaskSize);

    @SaveError
    Pointer mmap(Pointer address, @size_t long length, int protection, int flags, int fd, long offset);

    @SaveError
    int munmap(Pointer address, @size_t long length);

    @SaveError
    int close(int fd);
}
