/**
 * The RDMA Protocol (RFC 5040) as sans-I/O code, on top of DDP (RFC 5041) and MPA (RFC 5044).
 *
 * <p>Sending: {@link io.extsock.core.rdmap.MessageWriter} writes each outgoing message as the
 * FPDUs that carry it: {@link io.extsock.core.ddp.DdpSegmenter} cuts it into segments that fit
 * the MULPDU and writes each segment's DDP header with the RDMAP control field ({@link
 * io.extsock.core.rdmap.RdmapConstants#controlField}); the single-segment Read Request and
 * Terminate headers come from {@link io.extsock.core.rdmap.RdmapHeaderEncoder}; the payload is
 * referenced, never copied ({@link io.extsock.core.rdmap.MessagePayload}), and {@code
 * FpduFramer} frames it all into a {@code GatherWrite}.
 *
 * <p>Receiving: {@link io.extsock.core.rdmap.SegmentReader} deframes FPDUs, decodes and checks
 * each segment's headers ({@link io.extsock.core.rdmap.RdmapSegmentHeader}, {@link
 * io.extsock.core.rdmap.ReadRequestHeader}, {@link io.extsock.core.rdmap.TerminateHeader}) and
 * places the payload where its {@link io.extsock.core.rdmap.SegmentSink} (the queue pair's
 * receive side) says. The opcodes of RFC 7306 are known by name ({@link
 * io.extsock.core.rdmap.RdmapOpcode}) and refused as unexpected.
 *
 * <p>Instances are not thread-safe: each belongs to one stream direction and is used by one
 * thread at a time.
 */
package io.extsock.core.rdmap;
