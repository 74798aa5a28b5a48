// The Prince-Dormand 8(7) pair with its continuous extension (DOP853; HNW I, II.10, published
// 30-digit values) as data for src/ode/dop853.cpp: the c_i, a_ij, b_i, the embedded weights, the
// dense-output stages 14-16 and coefficients, and the rows as sums over stage derivatives.
#pragma once

#include "stage_sums.hpp"

namespace saltus::ode::dop853_tableau {

// Butcher tableau of Prince-Dormand 8(7)/DOP853 (HNW I, II.10; published 30-digit values).
constexpr double kC2 = 0.526001519587677318785587544488e-01;
constexpr double kC3 = 0.789002279381515978178381316732e-01;
constexpr double kC4 = 0.118350341907227396726757197510e+00;
constexpr double kC5 = 0.281649658092772603273242802490e+00;
constexpr double kC6 = 0.333333333333333333333333333333e+00;
constexpr double kC7 = 0.25e+00;
constexpr double kC8 = 0.307692307692307692307692307692e+00;
constexpr double kC9 = 0.651282051282051282051282051282e+00;
constexpr double kC10 = 0.6e+00;
constexpr double kC11 = 0.857142857142857142857142857142e+00;
constexpr double kC14 = 0.1e+00;
constexpr double kC15 = 0.2e+00;
constexpr double kC16 = 0.777777777777777777777777777778e+00;

constexpr double kA2_1 = 5.26001519587677318785587544488e-2;
constexpr double kA3_1 = 1.97250569845378994544595329183e-2;
constexpr double kA3_2 = 5.91751709536136983633785987549e-2;
constexpr double kA4_1 = 2.95875854768068491816892993775e-2;
constexpr double kA4_3 = 8.87627564304205475450678981324e-2;
constexpr double kA5_1 = 2.41365134159266685502369798665e-1;
constexpr double kA5_3 = -8.84549479328286085344864962717e-1;
constexpr double kA5_4 = 9.24834003261792003115737966543e-1;
constexpr double kA6_1 = 3.7037037037037037037037037037e-2;
constexpr double kA6_4 = 1.70828608729473871279604482173e-1;
constexpr double kA6_5 = 1.25467687566822425016691814123e-1;
constexpr double kA7_1 = 3.7109375e-2;
constexpr double kA7_4 = 1.70252211019544039314978060272e-1;
constexpr double kA7_5 = 6.02165389804559606850219397283e-2;
constexpr double kA7_6 = -1.7578125e-2;
constexpr double kA8_1 = 3.70920001185047927108779319836e-2;
constexpr double kA8_4 = 1.70383925712239993810214054705e-1;
constexpr double kA8_5 = 1.07262030446373284651809199168e-1;
constexpr double kA8_6 = -1.53194377486244017527936158236e-2;
constexpr double kA8_7 = 8.27378916381402288758473766002e-3;
constexpr double kA9_1 = 6.24110958716075717114429577812e-1;
constexpr double kA9_4 = -3.36089262944694129406857109825e0;
constexpr double kA9_5 = -8.68219346841726006818189891453e-1;
constexpr double kA9_6 = 2.75920996994467083049415600797e1;
constexpr double kA9_7 = 2.01540675504778934086186788979e1;
constexpr double kA9_8 = -4.34898841810699588477366255144e1;
constexpr double kA10_1 = 4.77662536438264365890433908527e-1;
constexpr double kA10_4 = -2.48811461997166764192642586468e0;
constexpr double kA10_5 = -5.90290826836842996371446475743e-1;
constexpr double kA10_6 = 2.12300514481811942347288949897e1;
constexpr double kA10_7 = 1.52792336328824235832596922938e1;
constexpr double kA10_8 = -3.32882109689848629194453265587e1;
constexpr double kA10_9 = -2.03312017085086261358222928593e-2;
constexpr double kA11_1 = -9.3714243008598732571704021658e-1;
constexpr double kA11_4 = 5.18637242884406370830023853209e0;
constexpr double kA11_5 = 1.09143734899672957818500254654e0;
constexpr double kA11_6 = -8.14978701074692612513997267357e0;
constexpr double kA11_7 = -1.85200656599969598641566180701e1;
constexpr double kA11_8 = 2.27394870993505042818970056734e1;
constexpr double kA11_9 = 2.49360555267965238987089396762e0;
constexpr double kA11_10 = -3.0467644718982195003823669022e0;
constexpr double kA12_1 = 2.27331014751653820792359768449e0;
constexpr double kA12_4 = -1.05344954667372501984066689879e1;
constexpr double kA12_5 = -2.00087205822486249909675718444e0;
constexpr double kA12_6 = -1.79589318631187989172765950534e1;
constexpr double kA12_7 = 2.79488845294199600508499808837e1;
constexpr double kA12_8 = -2.85899827713502369474065508674e0;
constexpr double kA12_9 = -8.87285693353062954433549289258e0;
constexpr double kA12_10 = 1.23605671757943030647266201528e1;
constexpr double kA12_11 = 6.43392746015763530355970484046e-1;

// 8th-order weights.
constexpr double kB1 = 5.42937341165687622380535766363e-2;
constexpr double kB6 = 4.45031289275240888144113950566e0;
constexpr double kB7 = 1.89151789931450038304281599044e0;
constexpr double kB8 = -5.8012039600105847814672114227e0;
constexpr double kB9 = 3.1116436695781989440891606237e-1;
constexpr double kB10 = -1.52160949662516078556178806805e-1;
constexpr double kB11 = 2.01365400804030348374776537501e-1;
constexpr double kB12 = 4.47106157277725905176885569043e-2;

// 3rd-order embedded weights bhh (stages 1, 9, 12).
constexpr double kBhh1 = 0.244094488188976377952755905512e+00;
constexpr double kBhh2 = 0.733846688281611857341361741547e+00;
constexpr double kBhh3 = 0.220588235294117647058823529412e-01;

// 5th-order error coefficients e_i = b_i - bhat_i.
constexpr double kE1 = 0.1312004499419488073250102996e-01;
constexpr double kE6 = -0.1225156446376204440720569753e+01;
constexpr double kE7 = -0.4957589496572501915214079952e+00;
constexpr double kE8 = 0.1664377182454986536961530415e+01;
constexpr double kE9 = -0.3503288487499736816886487290e+00;
constexpr double kE10 = 0.3341791187130174790297318841e+00;
constexpr double kE11 = 0.8192320648511571246570742613e-01;
constexpr double kE12 = -0.2235530786388629525884427845e-01;

// Extra stages 14..16 of the continuous extension (stage 13 is f at the step end).
constexpr double kA14_1 = 5.61675022830479523392909219681e-2;
constexpr double kA14_7 = 2.53500210216624811088794765333e-1;
constexpr double kA14_8 = -2.46239037470802489917441475441e-1;
constexpr double kA14_9 = -1.24191423263816360469010140626e-1;
constexpr double kA14_10 = 1.5329179827876569731206322685e-1;
constexpr double kA14_11 = 8.20105229563468988491666602057e-3;
constexpr double kA14_12 = 7.56789766054569976138603589584e-3;
constexpr double kA14_13 = -8.298e-3;
constexpr double kA15_1 = 3.18346481635021405060768473261e-2;
constexpr double kA15_6 = 2.83009096723667755288322961402e-2;
constexpr double kA15_7 = 5.35419883074385676223797384372e-2;
constexpr double kA15_8 = -5.49237485713909884646569340306e-2;
constexpr double kA15_11 = -1.08347328697249322858509316994e-4;
constexpr double kA15_12 = 3.82571090835658412954920192323e-4;
constexpr double kA15_13 = -3.40465008687404560802977114492e-4;
constexpr double kA15_14 = 1.41312443674632500278074618366e-1;
constexpr double kA16_1 = -4.28896301583791923408573538692e-1;
constexpr double kA16_6 = -4.69762141536116384314449447206e0;
constexpr double kA16_7 = 7.68342119606259904184240953878e0;
constexpr double kA16_8 = 4.06898981839711007970213554331e0;
constexpr double kA16_9 = 3.56727187455281109270669543021e-1;
constexpr double kA16_13 = -1.39902416515901462129418009734e-3;
constexpr double kA16_14 = 2.9475147891527723389556272149e0;
constexpr double kA16_15 = -9.15095847217987001081870187138e0;

// Continuous extension: r_j = h sum_i kD<j>_<i> K(i), j = 4..7 (r5..r8 in the header's notation).
constexpr double kD4_1 = -0.84289382761090128651353491142e+01;
constexpr double kD4_6 = 0.56671495351937776962531783590e+00;
constexpr double kD4_7 = -0.30689499459498916912797304727e+01;
constexpr double kD4_8 = 0.23846676565120698287728149680e+01;
constexpr double kD4_9 = 0.21170345824450282767155149946e+01;
constexpr double kD4_10 = -0.87139158377797299206789907490e+00;
constexpr double kD4_11 = 0.22404374302607882758541771650e+01;
constexpr double kD4_12 = 0.63157877876946881815570249290e+00;
constexpr double kD4_13 = -0.88990336451333310820698117400e-01;
constexpr double kD4_14 = 0.18148505520854727256656404962e+02;
constexpr double kD4_15 = -0.91946323924783554000451984436e+01;
constexpr double kD4_16 = -0.44360363875948939664310572000e+01;
constexpr double kD5_1 = 0.10427508642579134603413151009e+02;
constexpr double kD5_6 = 0.24228349177525818288430175319e+03;
constexpr double kD5_7 = 0.16520045171727028198505394887e+03;
constexpr double kD5_8 = -0.37454675472269020279518312152e+03;
constexpr double kD5_9 = -0.22113666853125306036270938578e+02;
constexpr double kD5_10 = 0.77334326684722638389603898808e+01;
constexpr double kD5_11 = -0.30674084731089398182061213626e+02;
constexpr double kD5_12 = -0.93321305264302278729567221706e+01;
constexpr double kD5_13 = 0.15697238121770843886131091075e+02;
constexpr double kD5_14 = -0.31139403219565177677282850411e+02;
constexpr double kD5_15 = -0.93529243588444783865713862664e+01;
constexpr double kD5_16 = 0.35816841486394083752465898540e+02;
constexpr double kD6_1 = 0.19985053242002433820987653617e+02;
constexpr double kD6_6 = -0.38703730874935176555105901742e+03;
constexpr double kD6_7 = -0.18917813819516756882830838328e+03;
constexpr double kD6_8 = 0.52780815920542364900561016686e+03;
constexpr double kD6_9 = -0.11573902539959630126141871134e+02;
constexpr double kD6_10 = 0.68812326946963000169666922661e+01;
constexpr double kD6_11 = -0.10006050966910838403183860980e+01;
constexpr double kD6_12 = 0.77771377980534432092869265740e+00;
constexpr double kD6_13 = -0.27782057523535084065932004339e+01;
constexpr double kD6_14 = -0.60196695231264120758267380846e+02;
constexpr double kD6_15 = 0.84320405506677161018159903784e+02;
constexpr double kD6_16 = 0.11992291136182789328035130030e+02;
constexpr double kD7_1 = -0.25693933462703749003312586129e+02;
constexpr double kD7_6 = -0.15418974869023643374053993627e+03;
constexpr double kD7_7 = -0.23152937917604549567536039109e+03;
constexpr double kD7_8 = 0.35763911791061412378285349910e+03;
constexpr double kD7_9 = 0.93405324183624310003907691704e+02;
constexpr double kD7_10 = -0.37458323136451633156875139351e+02;
constexpr double kD7_11 = 0.10409964950896230045147246184e+03;
constexpr double kD7_12 = 0.29840293426660503123344363579e+02;
constexpr double kD7_13 = -0.43533456590011143754432175058e+02;
constexpr double kD7_14 = 0.96324553959188282948394950600e+02;
constexpr double kD7_15 = -0.39177261675615439165231486172e+02;
constexpr double kD7_16 = -0.14972683625798562581422125276e+03;

// The tableau's rows as sums over stage derivatives (stage numbers 1-based, as above; Row and
// Term from stage_sums.hpp).
constexpr Row<1> kRow2{{{1, kA2_1}}};
constexpr Row<2> kRow3{{{1, kA3_1}, {2, kA3_2}}};
constexpr Row<2> kRow4{{{1, kA4_1}, {3, kA4_3}}};
constexpr Row<3> kRow5{{{1, kA5_1}, {3, kA5_3}, {4, kA5_4}}};
constexpr Row<3> kRow6{{{1, kA6_1}, {4, kA6_4}, {5, kA6_5}}};
constexpr Row<4> kRow7{{{1, kA7_1}, {4, kA7_4}, {5, kA7_5}, {6, kA7_6}}};
constexpr Row<5> kRow8{{{1, kA8_1}, {4, kA8_4}, {5, kA8_5}, {6, kA8_6}, {7, kA8_7}}};
constexpr Row<6> kRow9{{{1, kA9_1}, {4, kA9_4}, {5, kA9_5}, {6, kA9_6}, {7, kA9_7}, {8, kA9_8}}};
constexpr Row<7> kRow10{
    {{1, kA10_1}, {4, kA10_4}, {5, kA10_5}, {6, kA10_6}, {7, kA10_7}, {8, kA10_8}, {9, kA10_9}}};
constexpr Row<8> kRow11{{{1, kA11_1},
                         {4, kA11_4},
                         {5, kA11_5},
                         {6, kA11_6},
                         {7, kA11_7},
                         {8, kA11_8},
                         {9, kA11_9},
                         {10, kA11_10}}};
constexpr Row<9> kRow12{{{1, kA12_1},
                         {4, kA12_4},
                         {5, kA12_5},
                         {6, kA12_6},
                         {7, kA12_7},
                         {8, kA12_8},
                         {9, kA12_9},
                         {10, kA12_10},
                         {11, kA12_11}}};
constexpr Row<8> kWeights8{
    {{1, kB1}, {6, kB6}, {7, kB7}, {8, kB8}, {9, kB9}, {10, kB10}, {11, kB11}, {12, kB12}}};
constexpr Row<8> kError5{
    {{1, kE1}, {6, kE6}, {7, kE7}, {8, kE8}, {9, kE9}, {10, kE10}, {11, kE11}, {12, kE12}}};
constexpr Row<8> kRow14{{{1, kA14_1},
                         {7, kA14_7},
                         {8, kA14_8},
                         {9, kA14_9},
                         {10, kA14_10},
                         {11, kA14_11},
                         {12, kA14_12},
                         {13, kA14_13}}};
constexpr Row<8> kRow15{{{1, kA15_1},
                         {6, kA15_6},
                         {7, kA15_7},
                         {8, kA15_8},
                         {11, kA15_11},
                         {12, kA15_12},
                         {13, kA15_13},
                         {14, kA15_14}}};
constexpr Row<8> kRow16{{{1, kA16_1},
                         {6, kA16_6},
                         {7, kA16_7},
                         {8, kA16_8},
                         {9, kA16_9},
                         {13, kA16_13},
                         {14, kA16_14},
                         {15, kA16_15}}};
constexpr Row<12> kDense4{{{1, kD4_1},
                           {6, kD4_6},
                           {7, kD4_7},
                           {8, kD4_8},
                           {9, kD4_9},
                           {10, kD4_10},
                           {11, kD4_11},
                           {12, kD4_12},
                           {13, kD4_13},
                           {14, kD4_14},
                           {15, kD4_15},
                           {16, kD4_16}}};
constexpr Row<12> kDense5{{{1, kD5_1},
                           {6, kD5_6},
                           {7, kD5_7},
                           {8, kD5_8},
                           {9, kD5_9},
                           {10, kD5_10},
                           {11, kD5_11},
                           {12, kD5_12},
                           {13, kD5_13},
                           {14, kD5_14},
                           {15, kD5_15},
                           {16, kD5_16}}};
constexpr Row<12> kDense6{{{1, kD6_1},
                           {6, kD6_6},
                           {7, kD6_7},
                           {8, kD6_8},
                           {9, kD6_9},
                           {10, kD6_10},
                           {11, kD6_11},
                           {12, kD6_12},
                           {13, kD6_13},
                           {14, kD6_14},
                           {15, kD6_15},
                           {16, kD6_16}}};
constexpr Row<12> kDense7{{{1, kD7_1},
                           {6, kD7_6},
                           {7, kD7_7},
                           {8, kD7_8},
                           {9, kD7_9},
                           {10, kD7_10},
                           {11, kD7_11},
                           {12, kD7_12},
                           {13, kD7_13},
                           {14, kD7_14},
                           {15, kD7_15},
                           {16, kD7_16}}};

}  // namespace saltus::ode::dop853_tableau
