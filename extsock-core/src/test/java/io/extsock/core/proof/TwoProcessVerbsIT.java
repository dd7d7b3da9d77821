package io.extsock.core.proof;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The verbs across two JVM processes, one test per {@link VerbsScenario}, all against one child
 * JVM ({@link VerbsPeerProcess}) started before the first: what each scenario does and checks is
 * {@link TwoProcessVerbs}'s. The child exits cleanly after the last.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(120)
class TwoProcessVerbsIT {

    private TwoProcessVerbs child;

    @BeforeAll
    void startTheChild() throws Exception {
        child = TwoProcessVerbs.start(Proof.freePort());
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(VerbsScenario.class)
    void scenario(VerbsScenario scenario) throws Exception {
        child.run(scenario);
    }

    @AfterAll
    void theChildExitsCleanly() throws Exception {
        try (TwoProcessVerbs ending = child) {
            assertEquals(0, ending.quit(), () -> "the child failed:\n" + ending.childOutput());
        }
    }
}
