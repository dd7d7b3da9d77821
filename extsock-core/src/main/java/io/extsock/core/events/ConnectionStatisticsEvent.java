package io.extsock.core.events;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;

/**
 * One IWARP_MODE connection's counts, for every live connection at each period (by the engine's
 * {@code StatisticsEvents} periodic hook, default every second) and once more when it closes. The
 * totals since the switch; a rate is the difference of two events.
 */
@Name("io.extsock.ConnectionStatistics")
@Label("iWARP Connection Statistics")
@Description("An IWARP_MODE connection's counts since its switch: octets each way, RDMAP messages and payload"
        + " by type each way, failed work requests, the stream window")
@Category({"extsock"})
@StackTrace(false)
@Period("1 s")
public final class ConnectionStatisticsEvent extends jdk.jfr.Event {

    @Label("Peer")
    @Description("The peer's address")
    public String peer;

    @Label("Local")
    @Description("The local address")
    public String local;

    @Label("State")
    @Description("CONNECTED while the connection runs, CLOSED for the last event of an ended one")
    public String state;

    @Label("Bytes Sent")
    @Description("Octets handed to TCP since the switch, MPA framing included")
    @DataAmount
    public long bytesSent;

    @Label("Bytes Received")
    @Description("Octets read from TCP since the switch, MPA framing included")
    @DataAmount
    public long bytesReceived;

    @Label("Sends Sent")
    @Description("Send messages sent (the RTR and stream messages included)")
    public long sendsSent;

    @Label("Sends Received")
    @Description("Send messages received whole")
    public long sendsReceived;

    @Label("RDMA Writes Sent")
    @Description("RDMA Write messages sent (the RTR and stream messages included)")
    public long writesSent;

    @Label("RDMA Writes Received")
    @Description("RDMA Write messages received whole")
    public long writesReceived;

    @Label("RDMA Read Requests Sent")
    @Description("RDMA Read Request messages sent (the RTR and stream messages included)")
    public long readRequestsSent;

    @Label("RDMA Read Requests Received")
    @Description("RDMA Read Request messages received whole")
    public long readRequestsReceived;

    @Label("RDMA Read Responses Sent")
    @Description("RDMA Read Response messages sent (the RTR and stream messages included)")
    public long readResponsesSent;

    @Label("RDMA Read Responses Received")
    @Description("RDMA Read Response messages received whole")
    public long readResponsesReceived;

    @Label("Terminates Sent")
    @Description("Terminate messages sent (the RTR and stream messages included)")
    public long terminatesSent;

    @Label("Terminates Received")
    @Description("Terminate messages received whole")
    public long terminatesReceived;

    @Label("Sends Payload Sent")
    @Description("Payload octets of Send messages sent")
    @DataAmount
    public long sendsPayloadSent;

    @Label("Sends Payload Received")
    @Description("Payload octets of Send messages received")
    @DataAmount
    public long sendsPayloadReceived;

    @Label("RDMA Writes Payload Sent")
    @Description("Payload octets of RDMA Write messages sent")
    @DataAmount
    public long writesPayloadSent;

    @Label("RDMA Writes Payload Received")
    @Description("Payload octets of RDMA Write messages received")
    @DataAmount
    public long writesPayloadReceived;

    @Label("RDMA Read Responses Payload Sent")
    @Description("Payload octets of RDMA Read Response messages sent")
    @DataAmount
    public long readResponsesPayloadSent;

    @Label("RDMA Read Responses Payload Received")
    @Description("Payload octets of RDMA Read Response messages received")
    @DataAmount
    public long readResponsesPayloadReceived;

    @Label("Errors")
    @Description("Work requests completed with an error (a status other than SUCCESS and FLUSHED)")
    public long errors;

    @Label("Stream Window")
    @Description("Stream octets the receive buffers posted for the peer hold (0: no stream over iWARP)")
    @DataAmount
    public int streamWindow;
}
