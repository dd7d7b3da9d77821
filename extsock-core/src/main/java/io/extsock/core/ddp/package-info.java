/**
 * The Direct Data Placement protocol (RFC 5041) as sans-I/O code: no sockets, no threads.
 *
 * <p>Sending: {@link io.extsock.core.ddp.DdpSegmenter} cuts a message into segments that fit
 * the MULPDU and writes each segment's header ({@link io.extsock.core.ddp.DdpHeaderEncoder});
 * {@link io.extsock.core.ddp.MessageSequenceNumbers} hands out MSNs.
 *
 * <p>Receiving: the MPA layer hands over one ULPDU, which is one DDP segment.
 * {@link io.extsock.core.ddp.DdpSegmentHeader} parses and checks its header (usually through
 * {@code io.extsock.core.rdmap.RdmapSegmentHeader}, which adds RDMAP's checks), then
 * {@link io.extsock.core.ddp.DdpReceiveBookkeeping} checks it against the stream's state and
 * the buffers of the layer above, reached through {@link io.extsock.core.ddp.UntaggedBufferLookup}
 * and {@link io.extsock.core.ddp.TaggedBufferLookup}; only then may its payload be placed. Every
 * rejection is a {@link io.extsock.core.terminate.ProtocolViolationException} naming the Terminate
 * cause to send.
 *
 * <p>Everything on these paths reuses its objects and allocates nothing per segment.
 *
 * <p>Instances are not thread-safe: each belongs to one stream direction and is used by one
 * thread at a time.
 */
package io.extsock.core.ddp;
