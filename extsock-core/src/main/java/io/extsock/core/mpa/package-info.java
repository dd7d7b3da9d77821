/**
 * MPA, the Marker PDU Aligned framing of RFC 5044 with the enhanced connection setup of RFC
 * 6581, as a sans-I/O codec: bytes in, frames and events out; requests in, bytes out. Nothing
 * here touches a socket or a thread, and every class serves one direction of one connection on
 * one thread at a time.
 *
 * <p>Connection setup: {@link io.extsock.core.mpa.MpaFrameParser} reads the peer's Request or
 * Reply; {@link io.extsock.core.mpa.MpaNegotiation} turns {@link io.extsock.core.mpa.MpaPreferences}
 * and the frames into the Reply to send and an {@link io.extsock.core.mpa.MpaAgreement} or an
 * {@link io.extsock.core.mpa.MpaFailure}.
 *
 * <p>Full operation: {@link io.extsock.core.mpa.FpduFramer} frames ULPDUs into a
 * {@link io.extsock.core.mpa.GatherWrite} for one gathering write; {@link io.extsock.core.mpa.FpduDeframer}
 * takes the stream apart so that ULPDU octets can be read straight into their destination.
 *
 * <p>Where the rules come from: {@link io.extsock.core.mpa.MpaConstants}. Where a peer breaks
 * one: a {@link io.extsock.core.terminate.ProtocolViolationException} naming the Terminate cause.
 */
package io.extsock.core.mpa;
