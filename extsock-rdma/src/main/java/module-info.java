/**
 * The kernel's or an adapter's iWARP as an extsock provider: rdma-core's librdmacm and
 * libibverbs, bound at run time through the FFM API (JDK 22+). Needs native access: run with
 * {@code --enable-native-access=io.extsock.rdma} (or {@code ALL-UNNAMED} on the class path).
 */
module io.extsock.rdma {
    requires io.extsock.api;

    provides io.extsock.spi.IwarpProvider with io.extsock.rdma.provider.RdmaIwarpProvider;
}
