// Decodes each "label base64" line with the reference HdrHistogram and prints the summary hdr_interop_gen
// printed from our side for the same bytes (doubles as raw bits, so any difference shows).
import java.io.BufferedReader;
import java.io.FileReader;
import java.nio.ByteBuffer;
import java.util.Base64;
import org.HdrHistogram.Histogram;

public class InteropCheck {
  private static final String[] PERCENTILES = {"0", "25", "50", "75", "90", "99", "99.9", "99.99", "99.999", "100"};

  public static void main(String[] args) throws Exception {
    try (BufferedReader in = new BufferedReader(new FileReader(args[0]))) {
      String line;
      while ((line = in.readLine()) != null) {
        String[] parts = line.split(" ");
        byte[] bytes = Base64.getDecoder().decode(parts[1]);
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        int base = buffer.getInt(0) & ~0xf0;
        boolean compressed = base == 0x1c849304 || base == 0x1c849302 || base == 0x1c849309;
        Histogram h = compressed ? Histogram.decodeFromCompressedByteBuffer(buffer, 0)
                                 : Histogram.decodeFromByteBuffer(buffer, 0);
        StringBuilder out = new StringBuilder();
        out.append(String.format("%s total=%d max=%d min=%d mean=%016x sd=%016x htv=%d", parts[0], h.getTotalCount(),
            h.getMaxValue(), h.getMinValue(), Double.doubleToLongBits(h.getMean()),
            Double.doubleToLongBits(h.getStdDeviation()), h.getHighestTrackableValue()));
        for (String p : PERCENTILES) {
          out.append(" p").append(p).append("=").append(h.getValueAtPercentile(Double.parseDouble(p)));
        }
        ByteBuffer target = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int length = h.encodeIntoCompressedByteBuffer(target, 9);
        byte[] encoded = java.util.Arrays.copyOf(target.array(), length);
        out.append(" reencoded=").append(Base64.getEncoder().encodeToString(encoded));
        System.out.println(out);
      }
    }
  }
}
