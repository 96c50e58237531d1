# @summary Stdlib.
class stdlib { }
