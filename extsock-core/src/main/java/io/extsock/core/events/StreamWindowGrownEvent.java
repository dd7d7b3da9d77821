package io.extsock.core.events;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** The socket stream's receive window grew: the peer's writer had to wait for credits. */
@Name("io.extsock.StreamWindowGrown")
@Label("iWARP Stream Window Grown")
@Description("An IWARP_MODE socket stream posted more receive buffers for the peer, whose writer had to"
        + " wait for credits")
@Category({"extsock"})
@StackTrace(false)
public final class StreamWindowGrownEvent extends jdk.jfr.Event {

    @Label("Peer")
    @Description("The peer's address")
    public String peer;

    @Label("Old Size")
    @Description("The receive window before, in stream octets its posted buffers hold")
    @DataAmount
    public int oldSize;

    @Label("New Size")
    @Description("The receive window now")
    @DataAmount
    public int newSize;
}
