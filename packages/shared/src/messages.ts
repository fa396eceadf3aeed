/**
 * The specification's user-facing strings, verbatim (typos included: they are the contract).
 * Everything the UI or the API says to a person comes from here.
 */
export const MSG = {
  // generic
  defaultError: 'Opps, an error occurred!',
  somethingWentWrong: 'Something went wrong!',
  invalidToken: 'Invalid token',
  sessionExpired: 'Your session has ended, please log in again.',
  unauthorizedAccess: 'You are not allowed to do that.',
  notFound: 'Not found',
  tooManyRequests: 'Too many attempts, please wait a few minutes and try again.',
  invalidJson: 'The request body is not valid JSON.',
  bodyTooLarge: 'The request body is too large.',
  validationFailed: 'Some fields are not valid.',
  multipleLoginTitle: 'Logged in elsewhere',
  multipleLogin:
    'Your account can be used on one computer at a time. It was signed in on another computer, so this session has ended.',

  // login and sign-up (accounts 5)
  loginEmailRequired: 'Please enter your Email!',
  loginPasswordRequired: 'Please enter your password!',
  nameRequired: 'Please enter your name!',
  usernameRequired: 'Please enter your username!',
  usernameRule: 'Only lowercases letter followed by numbers are allowed',
  emailRequired: 'Please enter your email!',
  emailInvalid: 'The input is not valid E-mail!',
  passwordRequired: 'Please enter your password!',
  agreePrivacy: 'Please Agree To Privacy Policy',
  alreadyHaveAccount: 'Already have an account? Sign in here',
  invalidCredentials: 'The email or password is incorrect.',
  emailTaken: 'This email is already registered.',
  usernameTaken: 'This username is already taken.',
  inviteInvalid: 'This invitation link is invalid or has expired.',
  registrationSuccess: 'Registration Successfull!',
  loggedOut: 'You have been logged out.',

  // passwords
  passwordMin8: 'Password must be atleast 8 characters long!',
  passwordMismatch: 'Password does not match!',
  resetEmailSent: (email: string) => `An email has been sent to ${email}`,
  resetTokenInvalid: 'This password reset link is invalid or has expired.',
  passwordUpdated: 'Your password has been set. You can now log in.',

  // plans and payment
  selectPlan: 'Please select a plan to continue.',
  failedLoadSubscriptions: 'Failed to load Subscriptions',
  subscribedSuccess: 'Subscribed Successfully!',
  positiveIntegers: 'Only possitive integers are allowed',
  saveAnnual: 'Save 15% on annual subscription',
  paymentFailedBanner:
    'Your recent payment has failed, please click here to update your payment method to continue to have access to your embeded and linked models.',
  deactivatedBanner:
    'Your subscription to the current plan has been deactivated because of any following reason:',
  cancelledBanner: (at: string, until: string) =>
    `You have canceled your subscription at ${at}. Your subscription is valid till ${until}.`,

  // administration (administration-content 5 and 8)
  inviteNameRequired: 'Please enter the Name of User',
  inviteEmailRequired: 'Please enter the Email of User',
  addUserName: 'Please enter your name',
  chooseSubscription: 'Please choose a subscription',
  choosePlan: 'Please choose a plan',
  modelNameRequired: 'Please enter the name of model',
  modelUrlNameRequired: 'Please enter model name to be added to the URL',
  roleNameRequired: 'Please input the name of role',
  roleNameTaken: 'Role Name already exists',
  noChange: 'No change in Data!',
  oldPasswordRequired: 'Please Enter Old Password!',
  newPasswordRequired: 'Please Enter new Password!',
  passwordMin6: 'Password should be minimum 6 characters!',
  newPasswordMismatch: 'New and confirm passwords that you entered do not match!',
  brandNameRequired: 'Please input your custom brand name',
  fileOver1mb: 'File size is more than 1mb',
  dimensionsOver1000: 'Image Dimensions are larger then 1000 x 1000 pixels',
  fileOver5mb: 'File size is more than 5mb',
  dimensionsOver4000: 'Image Dimensions are larger 4000 x 4000 pixels',
  usersLimitExceeds: 'Users Limit Exceeds',
  usersUploaded: 'Users Uploaded Successfully',
  failedLoadUsers: 'Failed to load Users',
  failedDeleteUser: 'Failed to delete User',
  failedInviteUser: 'Failed to invite User',
  failedLoadModels: 'Failed to load Models',
  failedLoadRoles: 'Failed to load Roles',
  failedGetTenants: 'Failed to get Tenants',
  addPositiveInteger: 'Please add positive integer',
  copied: 'Copied Successfully',
  roleCreated: 'New Role Created Successfully',
  roleUpdated: 'Role Updated Successfully',
  brandingUpdated: 'Branding updated successfully',
  userUpdated: 'user updated sucessfully',
  unsavedBranding: 'You did not save. Do you want to save now ?',
  deleteUserTitle: 'Are You Sure?',
  deleteUserBody: 'Do you want to delete this user?',
  deleteRoleTitle: 'Are you sure?',
  deleteRoleBody: 'Do you want to delete this role!',

  // added by the API (not in the specification; wording ours)
  unknownField: 'This field is not allowed.',
  invalidCharacters: 'This field contains characters that are not allowed.',
  inviteEmailMismatch: 'This invitation was sent to another email address.',
  googleDisabled: 'Google sign-in is not available.',
  brandingLookupRequired: 'Please give a domain or a brand name.',
  tooLong: (max: number) => `Must be at most ${max} characters`,
  // plan cards (accounts 2: 'Try Starter, 30 days free, then $X')
  trialOffer: (plan: string, price: string) => `Try ${plan}, 30 days free, then ${price}`,
  // web shell (not in the specification; honest notices of the web app)
  notAvailableYet: 'This part of Helix is not available yet.',
  cardPaymentNotAvailable: 'Card payment is not available yet.',
  newVersionAvailable: 'A new version is available.',
  offlineReady: 'Helix is ready to work offline.',
  unauthorizedPage: 'You are not allowed to see this page.',
  pageNotFound: 'This page does not exist.',
  noPlans: 'No plans are available right now.',
} as const;

export type MessageKey = keyof typeof MSG;
