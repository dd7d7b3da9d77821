/**
 * The Terminate error model (RFC 5040 section 7, RFC 5041 section 7.2, RFC 5044 section 8): which
 * layer found a broken rule ({@link io.extsock.core.terminate.ErrorLayer}), the registered error
 * it is ({@link io.extsock.core.terminate.TerminateCause}), and the exception every codec throws
 * for remote input that breaks one ({@link io.extsock.core.terminate.ProtocolViolationException}).
 * The codecs of {@code mpa}, {@code ddp} and {@code rdmap} and the queue pair share it; the
 * Terminate message's layout lives in {@code rdmap}.
 */
package io.extsock.core.terminate;
