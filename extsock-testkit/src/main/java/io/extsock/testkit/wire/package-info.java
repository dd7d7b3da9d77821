/**
 * The wire judge: Wireshark (tshark 4.0) decodes a capture of iWARP traffic (MPA RFC 5044 and
 * RFC 6581, DDP RFC 5041, RDMAP RFC 5040), and {@link io.extsock.testkit.wire.WireJudge} fails
 * it for whatever Wireshark objects to and for every breach of a strict lint of our own over the
 * decoded fields. Start with {@link io.extsock.testkit.wire.WireJudge#ready()}.
 */
package io.extsock.testkit.wire;
