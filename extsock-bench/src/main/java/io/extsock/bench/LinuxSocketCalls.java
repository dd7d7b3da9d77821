package io.extsock.bench;

import jnr.ffi.Pointer;
import jnr.ffi.annotations.Direct;
import jnr.ffi.annotations.SaveError;
import jnr.ffi.types.size_t;
import jnr.ffi.types.ssize_t;

/**
 * The Linux C library calls that {@link NativeLink} makes, bound by jnr-ffi: sockets, their
 * reads and writes, and the three ways of waiting for input (blocking in {@code read}, {@code
 * poll}, {@code epoll_wait}). Each returns -1 with errno set on failure, as in C. Public because
 * jnr-ffi implements it with a class of its own making.
 */
public interface LinuxSocketCalls {

    int AF_INET = 2;
    int SOCK_STREAM = 1;
    int SOCK_CLOEXEC = 0x80000;
    int IPPROTO_TCP = 6;
    int TCP_NODELAY = 1;
    int F_GETFL = 3;
    int F_SETFL = 4;
    int O_NONBLOCK = 0x800;
    int EFD_CLOEXEC = 0x80000;
    int EFD_NONBLOCK = 0x800;
    int POLLIN = 0x1;
    int POLLOUT = 0x4;
    int EPOLLIN = 0x1;
    int EPOLL_CTL_ADD = 1;
    int EPOLL_CLOEXEC = 0x80000;
    int SHUT_RDWR = 2;
    int EINTR = 4;
    int EAGAIN = 11;
    /** What an io_uring request completes with when the kernel cancelled it. */
    int ECANCELED = 125;
    /** sizeof(struct sockaddr_in). */
    int SOCKADDR_IN_SIZE = 16;
    /** sizeof(struct pollfd). */
    int POLLFD_SIZE = 8;

    @SaveError
    int socket(int domain, int type, int protocol);

    @SaveError
    int setsockopt(int fd, int level, int name, @Direct Pointer value, int length);

    @SaveError
    int bind(int fd, @Direct Pointer address, int length);

    @SaveError
    int listen(int fd, int backlog);

    /** @param length in: the room at {@code address}; out: the address's length */
    @SaveError
    int getsockname(int fd, @Direct Pointer address, @Direct Pointer length);

    @SaveError
    int connect(int fd, @Direct Pointer address, int length);

    @SaveError
    int accept(int fd, Pointer address, Pointer length);

    @SaveError
    int fcntl(int fd, int command, int argument);

    @SaveError
    @ssize_t
    long read(int fd, @Direct Pointer buffer, @size_t long count);

    @SaveError
    @ssize_t
    long write(int fd, @Direct Pointer buffer, @size_t long count);

    /** @param fds {@code count} struct pollfd */
    @SaveError
    int poll(@Direct Pointer fds, long count, int timeoutMillis);

    @SaveError
    int eventfd(int initialValue, int flags);

    @SaveError
    int epoll_create1(int flags);

    @SaveError
    int epoll_ctl(int epollFd, int operation, int fd, @Direct Pointer event);

    @SaveError
    int epoll_wait(int epollFd, @Direct Pointer events, int maxEvents, int timeoutMillis);

    /** Ends the connection's reads and writes: unlike close, wakes a thread blocked on the socket. */
    @SaveError
    int shutdown(int fd, int how);

    @SaveError
    int close(int fd);
}
