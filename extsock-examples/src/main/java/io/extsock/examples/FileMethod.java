package io.extsock.examples;

/** How {@code extsock file} moves the bytes. */
enum FileMethod {
    /** Over the socket's stream (plain TCP or IWARP_MODE Sends), copied through user space. */
    stream,
    /** The server RDMA-Writes its memory-mapped file into the client's memory-mapped file. */
    write,
    /** The client RDMA-Reads the server's memory-mapped file into its own. */
    read;

    /** Whether the method needs IWARP_MODE. */
    boolean oneSided() {
        return this != stream;
    }
}
