$banner = @(BANNER)
  Authorized access only
  | END
notify { $banner: }
