/*
 * biquad_reference.c - the LV2 sample's effect written a second time, independently of its Java DSP, for the tests
 * to compare the plugin's output with: the RBJ audio-EQ cookbook's low-pass in transposed direct form II (the Java
 * effect uses direct form I), in double, each sample rounded to float.
 *
 *     biquad_reference RATE CUTOFF Q IN.f32 OUT.f32      (raw native-order floats, mono)
 *
 * The cut-off and Q are clamped as the plugin's range says: 10 Hz .. 0.45 * RATE, Q >= 0.1.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    if (argc != 6) {
        fprintf(stderr, "usage: %s RATE CUTOFF Q IN.f32 OUT.f32\n", argv[0]);
        return 2;
    }
    double rate = atof(argv[1]);
    double cutoff = fmin(fmax(atof(argv[2]), 10.0), 0.45 * rate);
    double q = fmax(atof(argv[3]), 0.1);
    FILE *in = fopen(argv[4], "rb");
    FILE *out = fopen(argv[5], "wb");
    if (in == NULL || out == NULL) {
        perror("biquad_reference");
        return 1;
    }
    const double pi = 3.14159265358979323846; /* M_PI is POSIX, not C11 */
    double w0 = 2.0 * pi * cutoff / rate;
    double alpha = sin(w0) / (2.0 * q);
    double a0 = 1.0 + alpha;
    double b0 = (1.0 - cos(w0)) / 2.0 / a0, b1 = (1.0 - cos(w0)) / a0, b2 = b0;
    double a1 = -2.0 * cos(w0) / a0, a2 = (1.0 - alpha) / a0;
    double z1 = 0.0, z2 = 0.0;
    float x;
    while (fread(&x, sizeof x, 1, in) == 1) {
        double y = b0 * x + z1;
        z1 = b1 * x - a1 * y + z2;
        z2 = b2 * x - a2 * y;
        float sample = (float)y;
        fwrite(&sample, sizeof sample, 1, out);
    }
    fclose(in);
    return fclose(out) == 0 ? 0 : 1;
}
