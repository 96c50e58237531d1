$banner = @(BANNER)
  Authorized access only
  | BANNER
notify { $banner: }
