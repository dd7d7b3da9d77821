/**
 * The verbs layer: the queue pair, memory regions and completions over the sans-I/O codecs.
 *
 * <h2>The queue pair, split as Linux siw splits it</h2>
 * <table>
 *   <caption>One concept per file</caption>
 *   <tr><th>File</th><th>siw</th><th>What</th></tr>
 *   <tr><td>{@link io.extsock.core.verbs.QueuePair}</td><td>{@code siw_qp.c}</td>
 *       <td>the queue pair's face: posting, the state, the end, the two sides as the engine
 *       drives them</td></tr>
 *   <tr><td>{@code WorkQueues}</td><td>{@code siw_qp.c}</td>
 *       <td>what posting and the two sides share, behind the one lock that only it takes: the
 *       state, Terminate and flush; the parts below run under that lock</td></tr>
 *   <tr><td>{@code SendQueue}, {@code ReceiveQueue}, {@code InboundReads}</td><td>{@code siw_qp.c}</td>
 *       <td>the send queue and the order of its completions, our Reads on the wire (ORD); the
 *       receive queue; the peer's Reads waiting for their response (IRD)</td></tr>
 *   <tr><td>{@code TransmitOrder}</td><td>{@code siw_qp.c} ({@code siw_activate_tx})</td>
 *       <td>which message goes next: Terminate, RTR, Read Responses taking turns with the send
 *       queue</td></tr>
 *   <tr><td>{@code TransmitSide}</td><td>{@code siw_qp_tx.c}</td>
 *       <td>framing into the engine's gathering write, completing what went out</td></tr>
 *   <tr><td>{@code ReceiveSide}</td><td>{@code siw_qp_rx.c}</td>
 *       <td>DDP's checks, the dispatch table (one {@code OpcodeHandler} per RDMAP opcode), the
 *       Terminate for a rule the peer broke</td></tr>
 *   <tr><td>{@code SendHandler}, {@code WriteHandler}, {@code ReadRequestHandler},
 *       {@code ReadResponseHandler}, {@code TerminateHandler}</td><td>the per-opcode parts of
 *       {@code siw_qp_rx.c}</td>
 *       <td>each opcode's rules: the Read Request handler alone claims the inbound Read slot,
 *       checks the source and queues the response</td></tr>
 * </table>
 * The engine builds the codecs ({@link io.extsock.core.verbs.WirePipeline}) and hands them to
 * the queue pair, and it alone waits ({@link io.extsock.core.verbs.InlineWait}); nothing in this
 * package does network I/O or waits for anything. Its one I/O is a file region's {@code pread}
 * ({@code FileRegionSource}), which the transmit side makes as it frames the region's bytes into
 * staging memory ({@code StagingArena}). Which thread owns which state: the engine's
 * package-info.
 *
 * <h2>The application's side</h2>
 * {@link io.extsock.core.verbs.QueuePairVerbs} is the API's {@code IwarpConnection} over one
 * queue pair: it checks each request locally (regions, rights, bounds) and posts it; memory
 * registration goes to the registry below.
 *
 * <h2>Memory and completions</h2>
 * {@link io.extsock.core.verbs.MemoryRegistry} holds the regions and their STags (RFC 5040
 * section 2.1, RFC 5042): registration from any thread, lock-free lookups from the receive
 * side. {@link io.extsock.core.verbs.CompletionRing} holds a connection's completions: it adds,
 * polls and tells its size, nothing more; {@code InlineCompletionQueue} and {@code InlineFuture}
 * wait through the engine's {@link io.extsock.core.verbs.InlineWait}. A completion carries its
 * cause as a value ({@link io.extsock.verbs.CompletionCause}: the Terminate's layer, type and
 * code, either way, or a local cause) beside the words of its detail.
 *
 * <h2>Testing without a socket</h2>
 * The test harness {@code EmbeddedPair} joins two queue pairs with a fake driver that hands
 * each gathering write to the peer's receive side in seeded chunks of 1 to N octets: every
 * protocol rule of this package is tested there, loopback tests prove the wiring.
 */
package io.extsock.core.verbs;
