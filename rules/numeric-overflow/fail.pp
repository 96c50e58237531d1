$big = 9223372036854775808
#      ^ error[numeric-overflow]: The integer 9223372036854775808 is out of range (a 64-bit signed integer)
