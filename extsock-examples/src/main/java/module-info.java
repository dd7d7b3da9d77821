/** The extsock command line. */
module io.extsock.examples {
    requires io.extsock.api;
    requires info.picocli;

    opens io.extsock.examples to info.picocli;
}
