/**
 * IWARP_MODE's socket streams: the byte stream of {@code getInputStream()} and {@code
 * getOutputStream()} carried by RDMAP Sends between two extsock ends, with TCP's contract.
 *
 * <p>{@link io.extsock.core.stream.IwarpStream} joins the two halves: {@link
 * io.extsock.core.stream.StreamOutput} cuts writes into Sends, one credit (a receive buffer the
 * peer posted) each, and blocks at the last credit; {@link io.extsock.core.stream.StreamInput}
 * posts the receive buffers, returns credits as the application reads, grows the window for a
 * writer that waited (within the memory budget) and checks every field of the peer's messages
 * ({@link io.extsock.core.stream.StreamHeader}); {@link io.extsock.core.stream.StreamUnavailable}
 * stands in where streams are off. A peer that ends the connection makes each call answer as a
 * TCP socket's would in the same case.
 */
package io.extsock.core.stream;
