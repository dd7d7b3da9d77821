package io.extsock.core.events;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * The socket stream's receive window would have grown, and the JVM's memory budget for window
 * growth refused all or part of it ({@code io.extsock.core.memory.DirectBufferPool}).
 */
@Name("io.extsock.StreamWindowRefused")
@Label("iWARP Stream Window Refused")
@Description("An IWARP_MODE socket stream would have posted more receive buffers for the peer, and the"
        + " JVM-wide memory budget for stream windows (extsock.memory.budget) was spent")
@Category({"extsock"})
@StackTrace(false)
public final class StreamWindowRefusedEvent extends jdk.jfr.Event {

    @Label("Peer")
    @Description("The peer's address")
    public String peer;

    @Label("Size")
    @Description("The receive window before, in stream octets its posted buffers hold")
    @DataAmount
    public int size;

    @Label("Wanted Size")
    @Description("The receive window the growth asked for")
    @DataAmount
    public int wantedSize;

    @Label("Granted Size")
    @Description("The receive window now: the size before, or what the budget had room for")
    @DataAmount
    public int grantedSize;
}
