package io.whale.cluster.hosts;

/** An IPv4 network, {@code a.b.c.d/prefix}; the address is kept as the 32 bits of an int, host bits cleared. */
public record Ipv4Cidr(int network, int prefix) {

    public Ipv4Cidr {
        if (prefix < 0 || prefix > 32) {
            throw new IllegalArgumentException("an IPv4 prefix length lies in 0..32, got " + prefix);
        }
        network &= mask(prefix);
    }

    /** {@code a.b.c.d/p}, or a bare address as a /32. */
    public static Ipv4Cidr parse(String text) {
        String[] parts = text.strip().split("/", -1);
        try {
            if (parts.length > 2) {
                throw new NumberFormatException();
            }
            return new Ipv4Cidr(address(parts[0]), parts.length == 2 ? Integer.parseInt(parts[1]) : 32);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not an IPv4 network (a.b.c.d/prefix): '" + text + "'");
        }
    }

    private static int address(String dotted) {
        String[] octets = dotted.split("\\.", -1);
        if (octets.length != 4) {
            throw new NumberFormatException(dotted);
        }
        int value = 0;
        for (String octet : octets) {
            int o = Integer.parseInt(octet);
            if (o < 0 || o > 255) {
                throw new NumberFormatException(dotted);
            }
            value = value << 8 | o;
        }
        return value;
    }

    private static int mask(int prefix) {
        return prefix == 0 ? 0 : -1 << (32 - prefix);
    }

    /** Whether the two networks share an address. */
    public boolean overlaps(Ipv4Cidr other) {
        int common = mask(Math.min(prefix, other.prefix));
        return (network & common) == (other.network & common);
    }

    /** Inside 10.0.0.0/8, 172.16.0.0/12 or 192.168.0.0/16 (RFC 1918), so never an address on the internet. */
    public boolean isPrivate() {
        return prefix >= 8 && parse("10.0.0.0/8").overlaps(this)
            || prefix >= 12 && parse("172.16.0.0/12").overlaps(this)
            || prefix >= 16 && parse("192.168.0.0/16").overlaps(this);
    }

    /** The address {@code offset} places into the network, e.g. offset 10 of 10.213.4.0/24 is 10.213.4.10. */
    public String address(int offset) {
        if (offset < 0 || prefix < 32 && Integer.toUnsignedLong(offset) >= 1L << (32 - prefix)) {
            throw new IllegalArgumentException("offset " + offset + " lies outside " + this);
        }
        return dotted(network + offset);
    }

    private static String dotted(int a) {
        return (a >>> 24) + "." + (a >>> 16 & 0xff) + "." + (a >>> 8 & 0xff) + "." + (a & 0xff);
    }

    @Override
    public String toString() {
        return dotted(network) + "/" + prefix;
    }
}
