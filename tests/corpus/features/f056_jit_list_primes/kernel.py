# Seed 002: @jit(nopython=True) find_all_primes_cpu appends to a list and returns it (a for
# loop's else branch runs when no divisor breaks it); the list comes back as a 1-d array.
from numba import jit


@jit(nopython=True)
def find_all_primes_cpu(upper):
    all_prime_numbers=[]
    for num in range(2, upper):
        # all prime numbers are greater than 1
        for i in range(2, num):
            if (num % i) == 0:
                break
        else:
            all_prime_numbers.append(num)
    return all_prime_numbers
