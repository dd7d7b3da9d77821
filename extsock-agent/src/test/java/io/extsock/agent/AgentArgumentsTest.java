package io.extsock.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AgentArgumentsTest {

    @Test
    void onlyTheRulesFileIsRequired() throws AgentConfigurationException {
        AgentArguments arguments = AgentArguments.parse("rules=/etc/extsock.rules");
        assertEquals(Path.of("/etc/extsock.rules"), arguments.rulesFile());
        assertEquals(LogLevel.OFF, arguments.log());
        assertEquals(true, arguments.fallback());
        assertEquals(1000, arguments.fallbackWaitMillis(), "IwarpOptions.FALLBACK_WAIT's default");
    }

    @Test
    void argumentsComeInAnyOrder() throws AgentConfigurationException {
        AgentArguments arguments = AgentArguments.parse("fallback=off,log=debug,fallback-wait=250,rules=relative/rules.txt");
        assertEquals(Path.of("relative/rules.txt"), arguments.rulesFile());
        assertEquals(LogLevel.DEBUG, arguments.log());
        assertEquals(false, arguments.fallback());
        assertEquals(250, arguments.fallbackWaitMillis());
        assertEquals(1, AgentArguments.parse("rules=r,fallback-wait=1").fallbackWaitMillis());
        assertEquals(Integer.MAX_VALUE, AgentArguments.parse("rules=r,fallback-wait=2147483647").fallbackWaitMillis());
        assertEquals(LogLevel.INFO, AgentArguments.parse("rules=r,log=info").log());
        assertEquals(LogLevel.OFF, AgentArguments.parse("rules=r,log=off").log());
        assertEquals(true, AgentArguments.parse("rules=r,fallback=on").fallback());
    }

    @Test
    void noArgumentsAtAllSaysHowToGiveThem() {
        for (String none : new String[] {null, "", " "}) {
            AgentConfigurationException e = assertThrows(AgentConfigurationException.class, () -> AgentArguments.parse(none));
            assertEquals("no arguments: the agent needs a rules file, " + AgentArguments.USAGE, e.getMessage());
        }
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = ';', quoteCharacter = '"', value = {
        "log=info                  ; no rules file: add rules=FILE, -javaagent:extsock-agent.jar=rules=FILE[,log=off|info|debug][,fallback=on|off][,fallback-wait=MS]",
        "rules=                    ; argument 'rules=' names no file",
        "rules=a,rules=b           ; argument 'rules' is given twice",
        "rules=a,log=loud          ; bad value 'log=loud': expected off, info or debug",
        "rules=a,log=INFO          ; bad value 'log=INFO': expected off, info or debug",
        "rules=a,fallback=yes      ; bad value 'fallback=yes': expected on or off",
        "rules=a,fallback=         ; bad value 'fallback=': expected on or off",
        "rules=a,fallback-wait=0   ; bad value 'fallback-wait=0': expected milliseconds, a whole number from 1 to 2147483647",
        "rules=a,fallback-wait=-5  ; bad value 'fallback-wait=-5': expected milliseconds, a whole number from 1 to 2147483647",
        "rules=a,fallback-wait=1s  ; bad value 'fallback-wait=1s': expected milliseconds, a whole number from 1 to 2147483647",
        "rules=a,fallback-wait=    ; bad value 'fallback-wait=': expected milliseconds, a whole number from 1 to 2147483647",
        "rules=a,fallback-wait=2147483648 ; bad value 'fallback-wait=2147483648': expected milliseconds, a whole number from 1 to 2147483647",
        "rules=a,fallback-wait=1,fallback-wait=2 ; argument 'fallback-wait' is given twice",
        "rules=a,verbose=true      ; unknown argument 'verbose': expected rules, log, fallback or fallback-wait, -javaagent:extsock-agent.jar=rules=FILE[,log=off|info|debug][,fallback=on|off][,fallback-wait=MS]",
        "rules=a,                  ; bad argument '': expected NAME=VALUE, -javaagent:extsock-agent.jar=rules=FILE[,log=off|info|debug][,fallback=on|off][,fallback-wait=MS]",
        "rules                     ; bad argument 'rules': expected NAME=VALUE, -javaagent:extsock-agent.jar=rules=FILE[,log=off|info|debug][,fallback=on|off][,fallback-wait=MS]",
        "=a                        ; bad argument '=a': expected NAME=VALUE, -javaagent:extsock-agent.jar=rules=FILE[,log=off|info|debug][,fallback=on|off][,fallback-wait=MS]",
    })
    void eachBadArgumentIsNamed(String text, String message) {
        AgentConfigurationException e = assertThrows(AgentConfigurationException.class, () -> AgentArguments.parse(text));
        assertEquals(message, e.getMessage());
    }
}
