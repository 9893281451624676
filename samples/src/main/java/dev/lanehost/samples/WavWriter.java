package dev.lanehost.samples;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Writes mono 16-bit PCM WAV (RIFF) files in plain Java: a 44-byte header whose two sizes are filled in by
 * {@link #close()}, then little-endian samples. Floats in [-1, 1] are scaled to 16 bits and clipped.
 */
public final class WavWriter implements AutoCloseable {
    private static final int HEADER_BYTES = 44;
    /** RIFF's sizes are 32-bit: a mono 16-bit file holds at most this many samples (6.2 hours at 48 kHz). */
    private static final long MAX_SAMPLES = (0xFFFF_FFFFL - HEADER_BYTES) / 2;

    private final FileChannel channel;
    private final OutputStream out;
    private final int sampleRate;
    private long samples;
    private boolean closed;

    /** Creates (or replaces) {@code path} and its parent directories. */
    public WavWriter(Path path, int sampleRate) throws IOException {
        if (sampleRate <= 0) {
            throw new IllegalArgumentException("sample rate must be > 0, got " + sampleRate);
        }
        Path parent = path.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        this.sampleRate = sampleRate;
        this.channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
        this.out = new BufferedOutputStream(Channels.newOutputStream(channel), 1 << 16);
        out.write(header(0));
    }

    /** Appends one sample. */
    public void write(float sample) throws IOException {
        if (samples == MAX_SAMPLES) {
            throw new IOException("a WAV file holds at most " + MAX_SAMPLES + " 16-bit samples");
        }
        float clipped = Math.max(-1f, Math.min(1f, sample));
        int value = Math.round(clipped * Short.MAX_VALUE);
        out.write(value & 0xFF);
        out.write((value >> 8) & 0xFF);
        samples++;
    }

    /** Samples written so far. */
    public long samples() {
        return samples;
    }

    /** Flushes, fills in the header's sizes and closes the file. Idempotent. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try (channel) {
            out.flush();
            channel.write(ByteBuffer.wrap(header(samples * 2)), 0);
        }
    }

    private byte[] header(long dataBytes) {
        ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        header.put("RIFF".getBytes(java.nio.charset.StandardCharsets.US_ASCII)).putInt((int) (36 + dataBytes));
        header.put("WAVE".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        header.put("fmt ".getBytes(java.nio.charset.StandardCharsets.US_ASCII)).putInt(16);
        header.putShort((short) 1);               // PCM
        header.putShort((short) 1);               // mono
        header.putInt(sampleRate);
        header.putInt(sampleRate * 2);            // bytes per second
        header.putShort((short) 2);               // bytes per frame
        header.putShort((short) 16);              // bits per sample
        header.put("data".getBytes(java.nio.charset.StandardCharsets.US_ASCII)).putInt((int) dataBytes);
        return header.array();
    }
}
