package io.extsock.examples.file;

/** How {@code extsock file} moves the bytes. */
public enum FileMethod {
    /** Over the socket's stream (plain TCP or IWARP_MODE Sends), copied through user space. */
    stream,
    /**
     * The server RDMA-Writes its file, registered as a file region, chunk by chunk into a ring of
     * the client's, which writes each chunk to its file.
     */
    write,
    /** The client RDMA-Reads the server's file, registered as a file region, through a ring into its file. */
    read,
    /**
     * Plain TCP as a Java program without extsock would do it: the server's {@code
     * FileChannel.transferTo} into its SocketChannel (sendfile on Linux); the client reads its
     * SocketChannel into a direct buffer and writes that to the file. The baseline for the
     * one-sided methods.
     */
    transferTo;

    /** Whether the method needs IWARP_MODE. */
    public boolean oneSided() {
        return this == write || this == read;
    }

    /** Whether the method is plain TCP's alone (over java.nio channels, not in IWARP_MODE). */
    public boolean plainTcpOnly() {
        return this == transferTo;
    }
}
