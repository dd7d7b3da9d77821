/**
 * The project's own test tools, for tests that need more than the JDK: {@code wire} judges
 * captured iWARP traffic with Wireshark's dissectors and a strict lint of our own; {@code siw}
 * boots Linux soft-iWARP in a QEMU guest as a peer nobody here wrote. Both need root and Debian
 * packages, which they install; their tests are tagged {@code interop} and run with
 * {@code mvn verify -Pinterop}. {@code fault} is a TCP relay that re-segments, delays,
 * corrupts, half-closes and resets, for the fault-injection tests of the default suite.
 * {@code pair} opens two ExtendedSockets on loopback switched to IWARP_MODE at once, directly
 * or through that relay; {@code leak} counts threads and file descriptors and times the end of
 * calls that must fail.
 */
package io.extsock.testkit;
