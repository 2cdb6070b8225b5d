package io.whale.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** Which user a local cluster's daemons run as (issue 34). */
class DaemonUserTest {
    private static final Function<String, DaemonUser> ACCOUNTS = name -> new DaemonUser(name, name.length() * 1000, 100);

    @Test
    void shouldRunAsTheUserAskedForThenTheEnvironmentsThenWhoeverRanSudo() {
        Map<String, String> env = Map.of(DaemonUser.ENV, "whale", "SUDO_USER", "alice");

        assertEquals("bob", DaemonUser.choose(Optional.of("bob"), true, env, ACCOUNTS).orElseThrow().name());
        assertEquals("whale", DaemonUser.choose(Optional.empty(), true, env, ACCOUNTS).orElseThrow().name());
        assertEquals("alice", DaemonUser.choose(Optional.empty(), true, Map.of("SUDO_USER", "alice"), ACCOUNTS).orElseThrow().name());
    }

    @Test
    void shouldRunAsNobodyWhereNoUserIsNamed() {
        assertEquals("nobody", DaemonUser.choose(Optional.empty(), true, Map.of(), ACCOUNTS).orElseThrow().name());
        assertEquals("nobody", DaemonUser.choose(Optional.empty(), true, Map.of("SUDO_USER", "root"), ACCOUNTS).orElseThrow().name(),
            "sudo from root names no other user");
    }

    @Test
    void shouldKeepRootOnlyWhenRootIsAskedForOrTheCommandIsNotRoot() {
        assertEquals(Optional.empty(), DaemonUser.choose(Optional.of("root"), true, Map.of("SUDO_USER", "alice"), ACCOUNTS));
        assertEquals(Optional.empty(), DaemonUser.choose(Optional.empty(), true, Map.of(DaemonUser.ENV, "root"), ACCOUNTS));
        assertEquals(Optional.empty(), DaemonUser.choose(Optional.empty(), false, Map.of("SUDO_USER", "alice"), ACCOUNTS),
            "not root: the daemons run as this command's user anyway");
    }

    @Test
    void shouldRefuseAnotherUserToACommandThatIsNotRoot() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> DaemonUser.choose(Optional.of("nobody"), false, Map.of(), ACCOUNTS));

        assertTrue(e.getMessage().startsWith("--user nobody (or WHALE_DAEMON_USER) needs root"), e.getMessage());
    }

    @Test
    void shouldStartTheDaemonAsTheUserWithItsGroups() {
        assertEquals(List.of("setpriv", "--reuid=65534", "--regid=65534", "--init-groups", "--"),
            new DaemonUser("nobody", 65534, 65534).launcher());
    }

    @Test
    void shouldNameAnUnknownUser() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DaemonUser.lookup("no-such-whale-user"));

        assertTrue(e.getMessage().startsWith("--user no-such-whale-user: no such user on this machine"), e.getMessage());
    }
}
