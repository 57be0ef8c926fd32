/* Step 8's rule with five tiles (hopper_by_shape of this commit's out/gemm.cu, fp16, B transposed, 132 SMs)
   scored against the forced runs of meas.txt. Built by fit.sh with HOPPER_TILES writable; no GPU needed.
     ./fit                 every speed of 64 x 128, 64 x 64, 128 x 128 (the committed ones +-6) and of 64 x 192 from 50
                           to 100, in steps of 2: the speeds, the geometric mean of the picked tiles' ratios, the worst
     ./fit p A B C D       those speeds: each shape's pick and ratio, then the mean and the worst */
#define main gemm_main
#include "g.cu"
#undef main
#include <math.h>

#define MAX_SHAPES 100
static int shape_of[MAX_SHAPES][3];             /* M, N, K */
static double ratio_of[MAX_SHAPES][HOPPER_KINDS_END];   /* cuBLAS / the tile, 0 where not measured */
static int shapes;

static int find(int m, int n, int k)
{
    for (int i = 0; i < shapes; i++)
        if (shape_of[i][0] == m && shape_of[i][1] == n && shape_of[i][2] == k)
            return i;
    shape_of[shapes][0] = m, shape_of[shapes][1] = n, shape_of[shapes][2] = k;
    return shapes++;
}

static void score(int verbose, const int speed[4])
{
    for (int i = 0; i < 4; i++)
        HOPPER_TILES[2 + i].speed = speed[i];
    double logs = 0, worst = 9;
    int at = 0, unmeasured = 0;
    for (int i = 0; i < shapes; i++) {
        int kind = hopper_by_shape(shape_of[i][0], shape_of[i][1], shape_of[i][2], 132);
        double ratio = ratio_of[i][kind];
        if (ratio == 0) {   /* a pick with no run: counted as 0.5, and said */
            ratio = 0.5;
            unmeasured++;
        }
        logs += log(ratio);
        if (ratio < worst)
            worst = ratio, at = i;
        if (verbose)
            printf("%dx%dx%d kind %d ratio %.3f\n", shape_of[i][0], shape_of[i][1], shape_of[i][2], kind, ratio);
    }
    printf("%d %d %d %d %.4f %.4f %dx%dx%d %d\n", speed[0], speed[1], speed[2], speed[3], exp(logs / shapes), worst,
           shape_of[at][0], shape_of[at][1], shape_of[at][2], unmeasured);
}

int main(int argc, char **argv)
{
    FILE *file = fopen("meas.txt", "r");
    int m, n, k, kind;
    double ratio;
    while (fscanf(file, "%d %d %d %d %lf", &m, &n, &k, &kind, &ratio) == 5)
        ratio_of[find(m, n, k)][kind] = ratio;
    if (argc == 6 && strcmp(argv[1], "p") == 0) {
        int speed[4] = {atoi(argv[2]), atoi(argv[3]), atoi(argv[4]), atoi(argv[5])};
        score(1, speed);
        return 0;
    }
    for (int a = 69; a <= 81; a += 2)
        for (int b = 56; b <= 68; b += 2)
            for (int c = 81; c <= 93; c += 2)
                for (int d = 50; d <= 100; d += 2) {
                    int speed[4] = {a, b, c, d};
                    score(0, speed);
                }
    return 0;
}
