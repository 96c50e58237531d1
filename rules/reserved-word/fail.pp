$visibility = private
#             ^ error[reserved-word]: Use of reserved word: private, must be quoted if intended to be a String value
