package io.whale.supervisor;

import java.io.File;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import org.apache.storm.shade.org.apache.commons.io.FileUtils;

/**
 * Reads a topology's files in the supervisor's local dir ({@code stormconf.ser}, {@code stormcode.ser}).
 *
 * <p>A missing file is a {@link FileNotFoundException}, as the supervisor's callers expect: when a topology is
 * killed while its blobs are still downloading, {@code AsyncLocalizer.releaseSlotFor} finds them gone and treats
 * a {@code FileNotFoundException} as "not downloaded yet" (STORM-3583). The commons-io Storm 2.8.3 shades reads
 * through NIO and throws {@link NoSuchFileException} instead, which the localizer rethrows and the supervisor's
 * slot halts the process on.
 */
public final class LocalizedFiles {

    private LocalizedFiles() {
    }

    public static byte[] readAll(File file) throws IOException {
        try {
            return FileUtils.readFileToByteArray(file);
        } catch (NoSuchFileException e) {
            FileNotFoundException missing = new FileNotFoundException(file + " does not exist");
            missing.initCause(e);
            throw missing;
        }
    }
}
