package io.extsock.verbs;

import io.extsock.IwarpOptions;
import java.util.Objects;

/**
 * What MPA negotiation agreed on for a connection (RFC 5044, RFC 6581), and what carries it.
 *
 * @param mpaRevision      1 or 2
 * @param crc              CRC32c on every FPDU
 * @param markersSent      this side inserts markers
 * @param markersReceived  the peer inserts markers
 * @param ird              inbound RDMA Reads this side serves at once
 * @param ord              outbound RDMA Reads this side may have outstanding
 * @param maxFpduSize      the largest FPDU this side sends
 * @param initiator        this side connected (MPA initiator)
 * @param provider         what carries the connection: {@link IwarpOptions.Provider#SOFTWARE}
 *                         (the software engine over the host's TCP) or {@link
 *                         IwarpOptions.Provider#DEVICE}; never AUTO, which is a choice, not a carrier
 * @param device           the RDMA device's name (for example {@code siw0}); empty on the
 *                         software engine
 */
public record IwarpSettings(int mpaRevision, boolean crc, boolean markersSent, boolean markersReceived,
                            int ird, int ord, int maxFpduSize, boolean initiator,
                            IwarpOptions.Provider provider, String device) {

    /**
     * Checks that the carrier is a real one and the device is named exactly when there is one.
     *
     * @param mpaRevision     1 or 2
     * @param crc             CRC32c on every FPDU
     * @param markersSent     this side inserts markers
     * @param markersReceived the peer inserts markers
     * @param ird             inbound RDMA Reads this side serves at once
     * @param ord             outbound RDMA Reads this side may have outstanding
     * @param maxFpduSize     the largest FPDU this side sends
     * @param initiator       this side connected (MPA initiator)
     * @param provider        SOFTWARE or DEVICE
     * @param device          the device's name; empty on the software engine
     * @throws IllegalArgumentException for AUTO, a device connection without a device name, or
     *         a software one with one
     */
    public IwarpSettings {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(device, "device");
        if (provider == IwarpOptions.Provider.AUTO) {
            throw new IllegalArgumentException("a connection runs on the software engine or a device, not on AUTO");
        }
        if ((provider == IwarpOptions.Provider.DEVICE) == device.isEmpty()) {
            throw new IllegalArgumentException("a device connection names its device, and only it does: "
                    + provider.label() + " with device '" + device + "'");
        }
    }

    /**
     * The settings of a connection on the software engine.
     *
     * @param mpaRevision     1 or 2
     * @param crc             CRC32c on every FPDU
     * @param markersSent     this side inserts markers
     * @param markersReceived the peer inserts markers
     * @param ird             inbound RDMA Reads this side serves at once
     * @param ord             outbound RDMA Reads this side may have outstanding
     * @param maxFpduSize     the largest FPDU this side sends
     * @param initiator       this side connected (MPA initiator)
     */
    public IwarpSettings(int mpaRevision, boolean crc, boolean markersSent, boolean markersReceived,
                         int ird, int ord, int maxFpduSize, boolean initiator) {
        this(mpaRevision, crc, markersSent, markersReceived, ird, ord, maxFpduSize, initiator,
                IwarpOptions.Provider.SOFTWARE, "");
    }
}
