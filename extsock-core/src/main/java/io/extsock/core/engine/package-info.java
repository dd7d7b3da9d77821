/**
 * The engine: what moves bytes between IWARP_MODE connections and the protocol layers.
 *
 * <h2>Threads</h2>
 * A small fixed set of progress threads ({@link io.extsock.core.engine.ProgressEngine}: system
 * property {@code extsock.engine.threads}, default {@code min(2, cores)}) serves every
 * connection of the JVM; there is no thread per connection. Besides them, the application's own
 * threads do the work whenever they are there to do it:
 * <ul>
 *   <li><b>Switching</b> to IWARP_MODE (MPA negotiation, {@link
 *       io.extsock.core.engine.MpaHandshake}) runs on the thread that switches: the one that set
 *       IWARP_MODE or connected, or, for an accepted socket, the one that first uses it.</li>
 *   <li><b>Transmit</b> runs on the thread that posted (a Send, Write, Read, a stream write): it
 *       frames and writes inline when the transmit lock is free. Only when the socket pushes back
 *       does the progress thread continue, on OP_WRITE.</li>
 *   <li><b>Receive</b> runs on an application thread that waits on the connection (a stream read,
 *       a completion-queue wait, a future's get): it reads and processes the socket itself and
 *       blocks in a Selector of its own, one wake-up per message as with TCP. A connection
 *       used through its streams alone stays with the threads that wait on it, as a TCP socket
 *       does: what arrives while nobody waits stays in the socket until a read, or {@code
 *       available()}, takes it. Once something must progress while nobody waits (the
 *       application uses the verbs, or stream writes wait in a batch for the peer's credits), the
 *       progress thread takes reading back when no application thread has waited for 1 ms, so
 *       that one-sided operations (RDMA Writes into our memory, Read Requests to answer)
 *       progress while the application is busy elsewhere; it reads for a virtual thread's wait
 *       too, which parks rather than reading. It looks every millisecond, and less often
 *       (up to every 256 ms) while each connection it watches has one wait that lasts: the end
 *       of such a wait wakes it, and an idle JVM of blocked readers costs no CPU.</li>
 * </ul>
 *
 * <h2>Composition</h2>
 * The engine is the composition root: {@link io.extsock.core.engine.SoftwareIwarpProvider}
 * builds each connection's codecs ({@code SoftwareIwarpProvider.pipeline}: the MPA framer under
 * the RDMAP/DDP writer, the MPA deframer under the segment reader) and hands them to the queue
 * pair as a {@code WirePipeline}, with {@link io.extsock.core.engine.ChannelDriver} as its driver
 * (transmit, close) and as the {@code InlineWait} that the verbs layer's blocking calls and the
 * socket stream's ({@code IwarpStream.start} is handed it) wait through. The queue pair
 * assembles no codec and waits on nothing.
 *
 * <h2>Who owns what</h2>
 * <table>
 *   <caption>State and its owner</caption>
 *   <tr><th>State</th><th>Owner</th></tr>
 *   <tr><td>A progress thread's Selector, its keys, interest sets, timers and hand-back set</td>
 *       <td>that progress thread only; others queue a task ({@code ProgressThread.execute})</td></tr>
 *   <tr><td>A connection's staging buffer, inline Selector and spin ({@code InlineSpin}, and how it
 *       polls: {@code SpinPolling}, whose count of reads any transmitter resets and whose sleeping gap any
 *       signal or transmitter ends), the queue pair's receive side
 *       ({@code ReceiveSide} and its opcode handlers: {@code SegmentReader}, deframer, DDP
 *       bookkeeping, placement, the Send being received, the Read Request being accepted)</td>
 *       <td>the holder of the connection's receive lock (an inline waiter or the progress thread)</td></tr>
 *   <tr><td>The gathering write, the queue pair's transmit side ({@code TransmitSide}:
 *       {@code MessageWriter}, framer, the message being framed, which requests finished with
 *       the last write)</td>
 *       <td>the holder of the connection's transmit lock (a poster or the progress thread)</td></tr>
 *   <tr><td>The send and receive queues, outstanding and inbound Reads (and the inbound Read
 *       slots), the Terminate to send, the queue pair's state and its pools ({@code QueuePair})</td>
 *       <td>shared; the queue pair's lock, held briefly, never around I/O or payload copies</td></tr>
 *   <tr><td>Completion queue</td><td>many producers (either side), many consumers; its own
 *       ({@code CompletionRing})</td></tr>
 *   <tr><td>Memory regions and STags</td><td>{@code MemoryRegistry}: registration from any thread,
 *       lock-free lookups from the receive side</td></tr>
 *   <tr><td>A socket stream's buffers and credits</td><td>{@code StreamInput}/{@code StreamOutput}
 *       monitors; their completions arrive from the receive and transmit sides</td></tr>
 *   <tr><td>A connection's direct memory ({@code MemoryLease} from the JVM's {@code
 *       DirectBufferPool}: staging, the gathering write's arena, the hold where an FPDU waits for its
 *       CRC, the stream's receive buffers)</td>
 *       <td>taken at start and as the stream window grows; given back once, by the application's
 *       close, by the holder of both locks after the connection is closed (every receive and
 *       transmit checks that under its lock first), so nothing touches a block once it is back</td></tr>
 *   <tr><td>A connection's counts ({@code ConnectionCounters}: octets, messages and payload by
 *       type, the stream window)</td>
 *       <td>one writer per count, no lock: the transmit side's by the holder of the transmit lock,
 *       the receive side's by the holder of the receive lock; failed requests (atomically) by any
 *       thread. Read by anyone: {@code statistics()}, JFR's periodic thread
 *       ({@code StatisticsEvents})</td></tr>
 * </table>
 *
 * <p>Locks are taken in one order only: receive lock, then transmit lock, then the queue pair's
 * lock, then a stream's monitor or the completion ring's. The receive side only ever tries the
 * transmit lock (to send a Read Response inline) and leaves the work to its holder when it is
 * taken, so no thread waits while holding a lock another waits for.
 */
package io.extsock.core.engine;
