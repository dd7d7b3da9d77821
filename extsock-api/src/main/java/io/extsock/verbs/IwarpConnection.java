package io.extsock.verbs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The extended side of an {@link io.extsock.ExtendedSocket} in IWARP_MODE: registered
 * memory, posted work requests and their completions (verbs semantics, Java manners).
 *
 * <p>Memory registered here belongs to this connection alone: the peer reaches a region only
 * through its STag, only within its bounds and only with the rights it was registered with.
 * All methods are thread-safe.
 */
public interface IwarpConnection {

    /**
     * Sends, RDMA Writes and Read Requests that may be outstanding at once (posted and not yet
     * completed): {@link #post} refuses more. A pipeline of requests keeps at most this many in
     * flight, as an ibverbs application keeps within its queue pair's {@code max_send_wr}.
     */
    int SEND_QUEUE_DEPTH = 512;

    /** Receives that may be posted and not yet completed at once: {@link #post} refuses more. */
    int RECEIVE_QUEUE_DEPTH = 512;

    /**
     * Registers a buffer (its position 0 to its capacity). Direct and mapped buffers are used
     * in place; heap buffers are allowed but cost a copy on every transfer.
     *
     * @param buffer the memory to register; the region shares it (its content, not its position)
     * @param access what the engine and the peer may do with it; an empty set allows local reads
     *               only (a gather source)
     * @return the registered region, with a fresh STag
     * @throws IOException if the connection has ended or its table of regions is full
     * @throws IllegalArgumentException if a read-only buffer is registered with a write right
     */
    MemoryRegion register(ByteBuffer buffer, Set<Access> access) throws IOException;

    /**
     * As {@link #register}, and locks the buffer's pages in RAM (mlock) as RDMA adapters pin
     * user buffers. Needs a direct or mapped buffer.
     *
     * @param buffer the memory to register and pin: a direct or mapped buffer
     * @param access what the engine and the peer may do with it
     * @return the registered region, {@link MemoryRegion#isPinned() pinned}
     * @throws IOException naming the limit (RLIMIT_MEMLOCK) when the OS refuses, or if the
     *         connection has ended
     * @throws IllegalArgumentException for a heap buffer (the garbage collector moves it), or a
     *         read-only buffer with a write right
     */
    MemoryRegion registerPinned(ByteBuffer buffer, Set<Access> access) throws IOException;

    /**
     * Registers bytes of a file, without mapping it: the peer may RDMA-Read them (with {@link
     * Access#REMOTE_READ}), and slices of the region may be the source of Sends and RDMA Writes.
     * The engine reads each segment's bytes from the file (pread) into a staging buffer of the
     * connection's as it frames it, and computes the CRC there. Compared with registering a
     * mapping ({@link java.nio.channels.FileChannel#map}): no page of the file is mapped, so none
     * is faulted in or touched through a page table of this process (costly on some virtual
     * machines), a region may be longer than the 2 GiB a {@code MappedByteBuffer} holds, and a
     * file that shrinks underneath ends the connection with an error rather than crashing the
     * JVM (a mapping's access beyond a truncated file's end is a SIGBUS); the price is one copy
     * in the kernel, as {@code read(2)} makes. The reads run on the thread that frames (the
     * engine's, or one posting or waiting): a file not in the page cache delays what that thread
     * sends meanwhile, as a page fault of a mapping would.
     *
     * <p>The region opens the file itself, read-only, and closes it when deregistered. It reads
     * the file as it is when each segment is framed, not as it was at registration. If a read
     * fails or finds the file shorter than the region, the connection ends: a Terminate (RDMAP,
     * local catastrophic error) goes to the peer, whose Read then fails, and a Send or Write
     * from the region completes {@link CompletionStatus#LOCAL_OPERATION_ERROR}, its message
     * naming the file and the position. An interrupt of the thread that frames does not end the
     * connection: the region reopens the file, if its path still names the same file, and keeps
     * the thread's interrupt status; a file renamed, replaced or deleted since registration is
     * read through the descriptor the region holds, until such an interrupt, which then ends the
     * connection as a failed read does.
     *
     * <p>Deregistering ({@link MemoryRegion#close()}) waits while a message from the region is
     * being framed: a Read Response, a Send or a Write goes out whole. A Send or Write posted
     * from the region but not yet started completes {@link CompletionStatus#LOCAL_PROTECTION_ERROR}
     * instead, and the connection carries on.
     *
     * @param file     a regular file to read
     * @param position where the region starts in the file
     * @param length   the region's length in bytes; the region spans tagged offsets
     *                 {@code [0, length)}
     * @param access   {@link Access#REMOTE_READ} or nothing (a local gather source only)
     * @return the registered region; its {@link MemoryRegion#buffer()} is unsupported, and a
     *         region longer than a {@link RemoteBuffer} holds (2^32 - 1 bytes) is advertised in
     *         windows ({@link MemoryRegion#remote(long, long)})
     * @throws IllegalArgumentException for a write right (a file region is read-only), or a
     *         negative position or length
     * @throws java.io.EOFException if the region reaches beyond the file's end
     * @throws IOException if the file cannot be opened, the connection has ended or its table
     *         of regions is full
     */
    MemoryRegion registerFile(Path file, long position, long length, Set<Access> access)
            throws IOException;

    /**
     * Posts a request; its completion goes to {@link #completions()}. The request object may
     * be reused as soon as this returns.
     *
     * <p>A completion says how the request ended locally: an RDMA Write or a Send completes
     * {@link CompletionStatus#SUCCESS} once its bytes are handed to TCP, not when they are
     * placed at the peer. A Write the peer refuses (outside its region, an invalid STag, no
     * right) still completes SUCCESS here; the peer answers with a Terminate, the connection
     * ends, and every request still outstanding then completes {@link CompletionStatus#FLUSHED}
     * (an RDMA Read the Terminate names: {@link CompletionStatus#REMOTE_ACCESS_ERROR}).
     *
     * @param request the request to post; it is copied, so it may be changed and posted again
     * @throws IOException if the connection has ended (the message names why)
     * @throws IllegalArgumentException if the request is incomplete or a slice is invalid
     * @throws IllegalStateException for a Send or Receive while the socket's streams own them
     *         (see {@link io.extsock.IwarpOptions#STREAMS}), or when the completion queue is
     *         full of completions not yet polled
     */
    void post(WorkRequest request) throws IOException;

    /**
     * Posts a list of requests at once, as {@code ibv_post_send} takes a chain of them: in the
     * list's order, each with its own completion in {@link #completions()}, as if posted one by
     * one with {@link #post}. The Sends, Writes and Read Requests of the list go out together,
     * in as few writes to the socket as the engine's gathering write allows, where requests
     * posted one by one each take a system call of their own: for many small messages, that is
     * most of what they cost.
     *
     * <p>The list is posted whole or not at all: a request that {@link #post} would refuse, a
     * completion queue, send queue or receive queue without room for all of them, or a
     * connection that has ended refuses the list before any of it is posted. The requests
     * (and the list) may be reused as soon as this returns; the same request object may appear
     * in it more than once.
     *
     * @param requests the requests to post, in order; an empty list posts nothing
     * @throws IOException if the connection has ended (the message names why)
     * @throws IllegalArgumentException if a request is incomplete or a slice is invalid (the
     *         message names the request's index in the list)
     * @throws IllegalStateException for a Send or Receive while the socket's streams own them,
     *         or when the completion queue, the send queue or the receive queue has no room for
     *         the whole list
     */
    void post(List<? extends WorkRequest> requests) throws IOException;

    /**
     * Posts a request whose completion completes the returned future instead of the queue.
     *
     * @param request the request to post; it is copied, so it may be changed and posted again
     * @return a future completed with the request's completion (whatever its status), or
     *         completed exceptionally with what {@link #post} would have thrown
     */
    CompletableFuture<WorkCompletion> submit(WorkRequest request);

    /**
     * Waits until {@code condition} holds, receiving this connection's inbound traffic on the
     * calling thread meanwhile. This is how to wait for what the peer places in registered
     * memory by RDMA Write, which no completion reports on this side: a thread that polls the
     * memory itself waits for the engine's thread to wake and place each Write, a hand-off
     * between threads that this call saves: here the waiting thread places the Write itself,
     * as a stream read receives its own bytes.
     *
     * <p>The condition runs on the calling thread, before the wait, after each batch of
     * inbound traffic and whenever another thread's progress may have changed its answer: keep
     * it cheap and free of side effects, and make it once rather than per call where the call
     * is frequent (a capturing lambda is an allocation). Whatever the engine placed before the
     * condition last ran is visible to it.
     *
     * @param condition what to wait for, typically a look at a registered buffer
     * @param timeout   how long to wait at most
     * @param unit      the unit of {@code timeout}
     * @return true once the condition holds; false if the timeout elapsed first
     * @throws InterruptedException if the thread is interrupted while it waits
     * @throws java.net.SocketException if the connection ended before the condition held
     *         (the message says how it ended)
     * @throws IOException if the wait fails otherwise
     */
    boolean await(BooleanSupplier condition, long timeout, TimeUnit unit) throws IOException, InterruptedException;

    /**
     * The completion queue of this connection.
     *
     * @return where the completions of {@link #post}ed requests arrive
     */
    CompletionQueue completions();

    /**
     * What MPA negotiation agreed on.
     *
     * @return the negotiated settings (revision, CRC, markers, IRD and ORD, FPDU size)
     */
    IwarpSettings settings();

    /**
     * The private data the peer sent in its MPA Request or Reply (the application's part).
     *
     * @return a copy of the peer's private data; empty if it sent none
     */
    byte[] peerPrivateData();

    /**
     * What this connection has moved so far: octets each way, RDMAP messages and their payload
     * by type each way, failed work requests, the socket stream's window. Works after the
     * connection ended too (the counts then stay as they were at its end).
     *
     * @return a new immutable snapshot; never null; no exception
     */
    IwarpStatistics statistics();

    /**
     * Says what the connection is, for logs: the peer's and the local address, whether it is
     * connected or how it ended, the MPA revision and this side's role, CRC, markers (sent /
     * received), IRD and ORD, the largest FPDU sent, e.g. {@code IwarpConnection[peer=127.0.0.1:7000,
     * local=127.0.0.1:53412, state=CONNECTED, mpa=2, role=initiator, crc=on, markers=off/off, ird=16,
     * ord=16, maxFpdu=65484]}; once it is ending {@code state=TERMINATING (why)}, and {@code
     * state=CLOSED (why)} once its socket is closed.
     *
     * @return that description; never null
     */
    @Override
    String toString();
}
