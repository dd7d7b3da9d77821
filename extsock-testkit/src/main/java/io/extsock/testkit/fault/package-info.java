/**
 * Fault injection for end-to-end tests: a TCP relay placed between two peers that re-segments,
 * delays, corrupts chosen octets, half-closes or resets one direction of one connection, at
 * points a test names by stream offset or by a pattern in the bytes (so that a test can hit
 * "the payload of the Read Response" without parsing the protocol in the relay). Plain JDK
 * sockets, loopback only, no privileges.
 */
package io.extsock.testkit.fault;
