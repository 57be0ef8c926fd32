/* Step 8's rule (hopper_by_shape of dc30bc5) scored against the forced runs of meas.txt, for fp16 on 132 SMs.
   Built by fit.sh against that commit's out/gemm.cu with HOPPER_TILES writable.
     ./fit LO HI STEP      every speed of 64 x 128, 64 x 64, 128 x 128 and 128 x 64 from LO to HI: one line each,
                           the speeds, the geometric mean of cuBLAS / the picked tile's time, the worst and where
     ./fit p A B C D       those speeds: each shape's pick and ratio, then the mean and the worst */
#define main gemm_main
#include "g.cu"
#undef main
#include <math.h>

#define MAX_SHAPES 80
static int shape_of[MAX_SHAPES][4];                   /* M, N, K, TRANSPOSE_B */
static double time_of[MAX_SHAPES][14], cublas_of[MAX_SHAPES];
static int shapes;

static int find(int tb, int m, int n, int k)
{
    for (int i = 0; i < shapes; i++)
        if (shape_of[i][0] == m && shape_of[i][1] == n && shape_of[i][2] == k && shape_of[i][3] == tb)
            return i;
    shape_of[shapes][0] = m, shape_of[shapes][1] = n, shape_of[shapes][2] = k, shape_of[shapes][3] = tb;
    return shapes++;
}

static void score(int verbose, const int speed[4])
{
    for (int i = 0; i < 4; i++)
        HOPPER_TILES[2 + i].speed = speed[i];
    double logs = 0, worst = 9;
    int at = 0;
    for (int i = 0; i < shapes; i++) {
        int kind = hopper_by_shape(shape_of[i][0], shape_of[i][1], shape_of[i][2], 132);
        double ratio = cublas_of[i] / time_of[i][kind];
        logs += log(ratio);
        if (ratio < worst)
            worst = ratio, at = i;
        if (verbose)
            printf("B%d %dx%dx%d kind %d ratio %.3f\n", shape_of[i][3], shape_of[i][0], shape_of[i][1], shape_of[i][2],
                   kind, ratio);
    }
    printf("%d %d %d %d %.4f %.4f %dx%dx%d\n", speed[0], speed[1], speed[2], speed[3], exp(logs / shapes), worst,
           shape_of[at][0], shape_of[at][1], shape_of[at][2]);
}

int main(int argc, char **argv)
{
    FILE *file = fopen("meas.txt", "r");
    int tb, m, n, k;
    char kind[8];
    double ms;
    while (fscanf(file, "%d %d %d %d %7s %lf", &tb, &m, &n, &k, kind, &ms) == 6) {
        int i = find(tb, m, n, k);
        if (strcmp(kind, "cub") == 0)
            cublas_of[i] = ms;
        else
            time_of[i][atoi(kind)] = ms;
    }
    if (argc == 6 && strcmp(argv[1], "p") == 0) {
        int speed[4] = {atoi(argv[2]), atoi(argv[3]), atoi(argv[4]), atoi(argv[5])};
        score(1, speed);
        return 0;
    }
    int lo = atoi(argv[1]), hi = atoi(argv[2]), step = atoi(argv[3]);
    for (int a = lo; a <= hi; a += step)
        for (int b = lo; b <= hi; b += step)
            for (int c = lo; c <= hi; c += step)
                for (int d = lo; d <= hi; d += step) {
                    int speed[4] = {a, b, c, d};
                    score(0, speed);
                }
    return 0;
}
