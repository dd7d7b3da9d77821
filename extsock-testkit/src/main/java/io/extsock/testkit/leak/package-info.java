/**
 * For tests that check nothing leaks and that blocked calls end: counts of the JVM's live
 * threads and open file descriptors ({@link io.extsock.testkit.leak.ResourceCount}), and the
 * moment a call that must fail failed ({@link io.extsock.testkit.leak.CallEnds}).
 */
package io.extsock.testkit.leak;
