package io.extsock.rdma.ffi;

import java.io.IOException;

/**
 * The one-line messages for what keeps a host from using its RDMA device, each naming the fix.
 * Pure functions of what was observed, so that each is tested without a device.
 */
public final class RdmaErrors {

    /** What installs rdma-core's user-space libraries and the providers' drivers. */
    public static final String INSTALL_RDMA_CORE = "install rdma-core's libraries"
            + " (Debian, Ubuntu: apt-get install libibverbs1 librdmacm1 ibverbs-providers;"
            + " Fedora, RHEL: dnf install libibverbs librdmacm)";

    /** What gives a host without an adapter an iWARP device of its own. */
    public static final String ADD_A_DEVICE = "add an iWARP device (an RNIC's driver, or Linux soft-iWARP as root:"
            + " modprobe siw; rdma link add siw0 type siw netdev <interface>)"
            + " or use the software provider";

    private RdmaErrors() {
    }

    /**
     * When {@code ibv_get_device_list} finds no device.
     *
     * @param errno what the call set: ENOSYS when the kernel has no RDMA support at all, 0
     *              when it listed none
     * @return the exception to throw
     */
    public static RdmaUnavailableException noDevice(int errno) {
        if (errno == RdmaConstants.ENOSYS) {
            return new RdmaUnavailableException("no RDMA device: this kernel has no RDMA user-space support"
                    + " (ib_uverbs is not loaded): load it (modprobe ib_uverbs) and " + ADD_A_DEVICE);
        }
        return new RdmaUnavailableException("no RDMA device on this host: " + ADD_A_DEVICE);
    }

    /**
     * When {@code ibv_reg_mr} fails. Pinning more than RLIMIT_MEMLOCK allows fails with ENOMEM
     * (or EPERM), which says nothing of the limit; the message names it and how to raise it.
     *
     * @param bytes        the length of the region
     * @param errno        what the call set
     * @param memlockLimit RLIMIT_MEMLOCK's soft limit, {@link Libc#RLIM_INFINITY} for none
     * @return the exception to throw
     */
    public static IOException registrationFailed(long bytes, int errno, long memlockLimit) {
        boolean pinning = errno == RdmaConstants.ENOMEM || errno == RdmaConstants.EPERM;
        if (pinning && memlockLimit != Libc.RLIM_INFINITY) {
            return new RdmaUnavailableException("cannot register " + bytes + " bytes with the RDMA device: "
                    + "RLIMIT_MEMLOCK allows this process to pin only " + memlockLimit + " bytes; raise it"
                    + " (ulimit -l unlimited, LimitMEMLOCK=infinity in a systemd unit, --ulimit memlock=-1"
                    + " for a container, or memlock in /etc/security/limits.conf)");
        }
        return new IOException("ibv_reg_mr of " + bytes + " bytes failed: " + Libc.strerror(errno)
                + " (errno " + errno + ")");
    }
}
