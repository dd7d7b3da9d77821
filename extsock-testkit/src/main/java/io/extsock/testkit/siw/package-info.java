/**
 * Linux soft-iWARP (siw) in a QEMU guest as a test peer: {@link io.extsock.testkit.siw.SiwGuest}
 * builds, boots, drives and stops it with the scripts in {@code extsock-testkit/siw-guest}
 * (see the README there: what each does, what it needs, the ports, the pitfalls).
 */
package io.extsock.testkit.siw;
