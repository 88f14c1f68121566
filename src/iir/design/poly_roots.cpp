// Companion-matrix eigenvalues for polynomial roots: radix-2 balancing (Parlett-Reinsch, as
// LAPACK's dgebal scaling) and the Francis double-shift QR iteration on the upper Hessenberg
// companion matrix (EISPACK hqr, as in Numerical Recipes), eigenvalues only.
#include "iir/design/poly_roots.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "ripple/error.hpp"

namespace ripple::iir::design {

namespace {

using cplx = std::complex<double>;

constexpr double eps = std::numeric_limits<double>::epsilon();

/// Square matrix in row-major order, indexed from 1 as the textbook algorithms are written.
class Matrix {
 public:
  explicit Matrix(std::size_t n) : n_(n), v_(n * n, 0.0) {}
  std::size_t size() const { return n_; }
  double& operator()(std::size_t i, std::size_t j) { return v_[(i - 1) * n_ + (j - 1)]; }

 private:
  std::size_t n_;
  std::vector<double> v_;
};

/// Diagonal similarity by powers of 2 so that each row and column have comparable norms; keeps
/// the Hessenberg form and changes no eigenvalue, only the rounding they are found with.
void balance(Matrix& a) {
  constexpr double radix = 2.0, radix2 = radix * radix;
  const std::size_t n = a.size();
  bool done = false;
  while (!done) {
    done = true;
    for (std::size_t i = 1; i <= n; ++i) {
      double r = 0, c = 0;
      for (std::size_t j = 1; j <= n; ++j) {
        if (j != i) {
          c += std::fabs(a(j, i));
          r += std::fabs(a(i, j));
        }
      }
      if (c == 0 || r == 0) continue;
      double g = r / radix, f = 1;
      const double s = c + r;
      while (c < g) {
        f *= radix;
        c *= radix2;
      }
      g = r * radix;
      while (c > g) {
        f /= radix;
        c /= radix2;
      }
      if ((c + r) / f < 0.95 * s) {
        done = false;
        g = 1 / f;
        for (std::size_t j = 1; j <= n; ++j) a(i, j) *= g;
        for (std::size_t j = 1; j <= n; ++j) a(j, i) *= f;
      }
    }
  }
}

double sign(double a, double b) { return b >= 0 ? std::fabs(a) : -std::fabs(a); }

/// Eigenvalues of the upper Hessenberg matrix a (destroyed), in the order they deflate.
/// Returns false when an eigenvalue needs more than 60 iterations.
bool hessenberg_eigenvalues(Matrix& a, std::vector<cplx>& out) {
  const std::size_t n = a.size();
  std::vector<double> wr(n + 1), wi(n + 1);
  double anorm = 0;
  for (std::size_t i = 1; i <= n; ++i) {
    for (std::size_t j = (i > 1 ? i - 1 : 1); j <= n; ++j) anorm += std::fabs(a(i, j));
  }
  std::size_t nn = n;  // the active block is rows/columns 1..nn
  double t = 0;        // accumulated exceptional shifts
  int its = 0;
  while (nn >= 1) {
    // Look for a negligible subdiagonal element a(l, l-1), splitting off the block l..nn.
    std::size_t l = nn;
    for (; l >= 2; --l) {
      double s = std::fabs(a(l - 1, l - 1)) + std::fabs(a(l, l));
      if (s == 0) s = anorm;
      if (std::fabs(a(l, l - 1)) <= eps * s) {
        a(l, l - 1) = 0;
        break;
      }
    }
    if (l < 1) l = 1;
    double x = a(nn, nn);
    if (l == nn) {  // one real root
      wr[nn] = x + t;
      wi[nn] = 0;
      --nn;
      its = 0;
      continue;
    }
    double y = a(nn - 1, nn - 1);
    double w = a(nn, nn - 1) * a(nn - 1, nn);
    if (l == nn - 1) {  // a 2x2 block: two real roots or a conjugate pair
      double p = 0.5 * (y - x);
      double q = p * p + w;
      double z = std::sqrt(std::fabs(q));
      x += t;
      if (q >= 0) {
        z = p + sign(z, p);
        wr[nn - 1] = wr[nn] = x + z;
        if (z != 0) wr[nn] = x - w / z;
        wi[nn - 1] = wi[nn] = 0;
      } else {
        wr[nn - 1] = wr[nn] = x + p;
        wi[nn - 1] = -z;
        wi[nn] = z;
      }
      nn -= 2;
      its = 0;
      continue;
    }
    if (its == 60) return false;
    if (its == 10 || its == 20 || its == 40) {  // exceptional shift
      t += x;
      for (std::size_t i = 1; i <= nn; ++i) a(i, i) -= x;
      const double s = std::fabs(a(nn, nn - 1)) + std::fabs(a(nn - 1, nn - 2));
      y = x = 0.75 * s;
      w = -0.4375 * s * s;
    }
    ++its;
    // Find two consecutive small subdiagonal elements: start the double-shift sweep at m.
    std::size_t m = nn - 2;
    double p = 0, q = 0, r = 0, z = 0;
    for (;; --m) {
      z = a(m, m);
      r = x - z;
      double s = y - z;
      p = (r * s - w) / a(m + 1, m) + a(m, m + 1);
      q = a(m + 1, m + 1) - z - r - s;
      r = a(m + 2, m + 1);
      s = std::fabs(p) + std::fabs(q) + std::fabs(r);
      p /= s;
      q /= s;
      r /= s;
      if (m == l) break;
      const double u = std::fabs(a(m, m - 1)) * (std::fabs(q) + std::fabs(r));
      const double v =
          std::fabs(p) * (std::fabs(a(m - 1, m - 1)) + std::fabs(z) + std::fabs(a(m + 1, m + 1)));
      if (u <= eps * v) break;
    }
    for (std::size_t i = m + 2; i <= nn; ++i) {
      a(i, i - 2) = 0;
      if (i != m + 2) a(i, i - 3) = 0;
    }
    // Double-shift QR step on rows/columns l..nn by 3x3 Householder reflections.
    for (std::size_t k = m; k <= nn - 1; ++k) {
      if (k != m) {
        p = a(k, k - 1);
        q = a(k + 1, k - 1);
        r = 0;
        if (k != nn - 1) r = a(k + 2, k - 1);
        x = std::fabs(p) + std::fabs(q) + std::fabs(r);
        if (x != 0) {
          p /= x;
          q /= x;
          r /= x;
        }
      }
      const double s = sign(std::sqrt(p * p + q * q + r * r), p);
      if (s == 0) continue;
      if (k == m) {
        if (l != m) a(k, k - 1) = -a(k, k - 1);
      } else {
        a(k, k - 1) = -s * x;
      }
      p += s;
      x = p / s;
      y = q / s;
      z = r / s;
      q /= p;
      r /= p;
      for (std::size_t j = k; j <= nn; ++j) {  // rows
        p = a(k, j) + q * a(k + 1, j);
        if (k != nn - 1) {
          p += r * a(k + 2, j);
          a(k + 2, j) -= p * z;
        }
        a(k + 1, j) -= p * y;
        a(k, j) -= p * x;
      }
      const std::size_t mmin = nn < k + 3 ? nn : k + 3;
      for (std::size_t i = l; i <= mmin; ++i) {  // columns
        p = x * a(i, k) + y * a(i, k + 1);
        if (k != nn - 1) {
          p += z * a(i, k + 2);
          a(i, k + 2) -= p * r;
        }
        a(i, k + 1) -= p * q;
        a(i, k) -= p;
      }
    }
  }
  out.clear();
  for (std::size_t i = 1; i <= n; ++i) out.emplace_back(wr[i], wi[i]);
  return true;
}

}  // namespace

std::vector<cplx> polynomial_roots(std::span<const double> c, const char* function) {
  std::size_t first = 0, last = c.size();
  while (first < last && c[first] == 0) ++first;
  while (last > first && c[last - 1] == 0) --last;
  if (first == last) return {};
  const std::size_t trailing_zeros = c.size() - last;
  const std::size_t degree = last - first - 1;

  std::vector<cplx> roots;
  if (degree == 1) {
    roots.emplace_back(-c[first + 1] / c[first], 0.0);
  } else if (degree > 1) {
    Matrix a(degree);
    for (std::size_t j = 1; j <= degree; ++j) a(1, j) = -c[first + j] / c[first];
    for (std::size_t i = 2; i <= degree; ++i) a(i, i - 1) = 1;
    balance(a);
    if (!hessenberg_eigenvalues(a, roots)) {
      throw InvalidArgument(std::string(function) +
                            ": the polynomial root finder did not converge "
                            "(degree " +
                            std::to_string(degree) + ")");
    }
  }
  roots.insert(roots.end(), trailing_zeros, cplx(0.0, 0.0));
  return roots;
}

}  // namespace ripple::iir::design
