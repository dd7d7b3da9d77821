/**
 * A connected pair of {@link io.extsock.ExtendedSocket}s on loopback, both ends switched to
 * IWARP_MODE at once ({@link io.extsock.testkit.pair.IwarpSocketPair}), directly or through a
 * {@link io.extsock.testkit.fault.FaultRelay}: the fixture of most end-to-end tests.
 */
package io.extsock.testkit.pair;
