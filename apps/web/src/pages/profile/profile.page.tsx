import { UserOutlined } from '@ant-design/icons';
import { Avatar, Button, Descriptions, Form, Input, Space, Typography } from 'antd';
import { useState } from 'react';
import { Navigate } from 'react-router-dom';
import { MSG } from '@helix/shared';
import { ProfileUpdate } from '@helix/shared/schemas/profile';
import {
  ImagePicker,
  imageChangeOf,
  imageRule,
  imageValueOf,
  type ImageValue,
} from '../../components/image-picker/image-picker';
import { ApiError } from '../../api/api-error';
import { applyServerErrors } from '../../forms/server-errors';
import { zodRule } from '../../forms/zod-rule';
import { replaceSessionUser } from '../../session/session';
import { abilitiesOf, type SessionUser } from '../../session/session-user';
import { useSessionUser } from '../../session/use-session';
import { toastError, toastInfo, toastSuccess } from '../../ui/notify';
import { PageTitle } from '../../ui/page-title';
import { saveProfile } from './profile.api';
import './profile.css';

interface ProfileFormValues {
  name: string;
  email: string;
  profilePicture: ImageValue;
  oldPassword?: string;
  newPassword?: string;
  confirmPassword?: string;
}

const FIELDS = ['name', 'profilePicture', 'oldPassword', 'newPassword', 'confirmPassword'] as const;

/** /user/settings/profile (administration-content 2, 4): view, then edit picture, name and password. */
export function ProfilePage() {
  const user = useSessionUser();
  const [editing, setEditing] = useState(false);
  if (!user) return null;
  const can = abilitiesOf(user);
  if (!can.profile) return <Navigate to="/unauthorized" replace />;
  const canEdit = can.editProfile;

  return (
    <section className="page profile-page">
      <PageTitle title="Profile" />
      <Typography.Title level={1} className="page-title">
        Profile
      </Typography.Title>
      {editing ? (
        <ProfileForm user={user} onDone={() => setEditing(false)} />
      ) : (
        <ProfileView user={user} onEdit={canEdit ? () => setEditing(true) : undefined} />
      )}
    </section>
  );
}

function ProfileView({ user, onEdit }: { user: SessionUser; onEdit?: () => void }) {
  return (
    <Space orientation="vertical" size="large">
      <Space size="large" align="center">
        <Avatar
          size={96}
          src={user.profilePicture || undefined}
          icon={<UserOutlined />}
          alt={`${user.name}'s picture`}
          data-testid="profile-avatar"
        />
        <Typography.Title level={3} style={{ margin: 0 }}>
          {user.name}
        </Typography.Title>
      </Space>
      <Descriptions column={1} bordered size="small">
        <Descriptions.Item label="Full name">{user.name}</Descriptions.Item>
        <Descriptions.Item label="Email">{user.email}</Descriptions.Item>
        <Descriptions.Item label="Username">{user.userName}</Descriptions.Item>
        <Descriptions.Item label="Roles">{user.roles.map((r) => r.name).join(', ') || '—'}</Descriptions.Item>
      </Descriptions>
      {onEdit && (
        <Button type="primary" onClick={onEdit}>
          Edit Profile
        </Button>
      )}
    </Space>
  );
}

function ProfileForm({ user, onDone }: { user: SessionUser; onDone(): void }) {
  const [form] = Form.useForm<ProfileFormValues>();
  const [busy, setBusy] = useState(false);

  const onFinish = async (values: ProfileFormValues) => {
    setBusy(true);
    try {
      const result = await saveProfile(
        {
          name: values.name,
          oldPassword: values.oldPassword,
          newPassword: values.newPassword,
          confirmPassword: values.confirmPassword,
          picture: imageChangeOf(values.profilePicture),
        },
        user,
      );
      if (result.status === 'queued') {
        // Optimistic: the header shows the new name; the server's answer replaces it once sent.
        replaceSessionUser({ ...user, name: values.name });
        toastInfo(MSG.savedForLater);
      } else {
        replaceSessionUser(result.data.user);
        toastSuccess(result.data.message || MSG.userUpdated);
      }
      onDone();
    } catch (error) {
      // The client already toasted a server failure; anything else is a bug worth saying so.
      if (error instanceof ApiError) applyServerErrors(form, error, FIELDS);
      else {
        console.error(error);
        toastError(MSG.defaultError);
      }
      setBusy(false);
    }
  };

  return (
    <Form<ProfileFormValues>
      form={form}
      layout="vertical"
      className="profile-form"
      initialValues={{
        name: user.name,
        email: user.email,
        profilePicture: imageValueOf(user.profilePicture ?? null),
      }}
      onFinish={(values) => void onFinish(values)}
      disabled={busy}
    >
      <Form.Item label="Picture" name="profilePicture" rules={[imageRule('profile')]}>
        <ImagePicker label="Picture" shape="round" fallback={<UserOutlined aria-hidden />} />
      </Form.Item>
      <Form.Item label="Full name" name="name" rules={[zodRule(ProfileUpdate, 'name')]}>
        <Input autoComplete="name" maxLength={100} />
      </Form.Item>
      <Form.Item label="Email" name="email" extra="Your e-mail address cannot be changed here.">
        <Input readOnly disabled />
      </Form.Item>
      <Typography.Title level={4}>Change password</Typography.Title>
      <Form.Item
        label="Old password"
        name="oldPassword"
        dependencies={['newPassword']}
        rules={[zodRule(ProfileUpdate, 'oldPassword')]}
      >
        <Input.Password autoComplete="current-password" />
      </Form.Item>
      <Form.Item
        label="New password"
        name="newPassword"
        dependencies={['oldPassword']}
        rules={[zodRule(ProfileUpdate, 'newPassword')]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        label="Confirm password"
        name="confirmPassword"
        dependencies={['newPassword']}
        rules={[zodRule(ProfileUpdate, 'confirmPassword')]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Space>
        <Button type="primary" htmlType="submit" loading={busy}>
          Save
        </Button>
        <Button onClick={onDone} disabled={busy}>
          Cancel
        </Button>
      </Space>
    </Form>
  );
}
